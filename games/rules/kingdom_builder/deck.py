"""Terrain cards in play: drawing, reshuffling, revealing, and the terrain-draw variants.

Variants (table option ``terrain_draw``):
- ``standard``: one secret card in hand, revealed at the start of the turn.
- ``draft``: ``draft_size`` cards face up; at the start of the turn take one of them or the
  unknown top card of the draw pile; the face-up row is refilled at once.
- ``hand``: ``hand_size`` secret cards; play one at the start of the turn, draw back up at
  its end.
- ``choose``: no cards; pick any terrain at the start of the turn.
- ``sceadeau``: two secret cards at the start; turn 1 plays one; at the start of turn 2 the
  other is played or swapped for the top card of the draw pile; then as ``standard``.

Crossroads' Crossroads tile: at the end of each turn in which the player holds one (also
the turn it was taken) an extra secret card is drawn; the next turn the player chooses
which card to play, and every unplayed card is discarded at its end (``hand`` variant: the
hand is simply one card larger; ``choose``: no effect).
"""

from __future__ import annotations

import random
from typing import Any

from games.rules.base import IllegalCommand, require
from games.rules.kingdom_builder.emitter import Emitter
from games.rules.kingdom_builder.placement import free_hexes
from games.rules.kingdom_builder.state import CHOOSE_TERRAIN, State
from games.rules.kingdom_builder.terrain import BUILDABLE_TERRAINS, TERRAIN_NAMES, shuffled

STANDARD, DRAFT, HAND, CHOOSE, SCEADEAU = "standard", "draft", "hand", "choose", "sceadeau"
TERRAIN_DRAWS = (STANDARD, DRAFT, HAND, CHOOSE, SCEADEAU)

CHOICE_COMMANDS = (
    "play_terrain_card",
    "swap_terrain_card",
    "take_terrain_card",
    "draw_terrain_card",
    "choose_terrain",
)


def hand_size(options: dict[str, Any]) -> int:
    """How many secret cards a seat holds between its turns."""
    draw = options["terrain_draw"]
    if draw == HAND:
        size: int = options["hand_size"]
        return size
    if draw in (STANDARD, SCEADEAU):
        return 1
    return 0


def opening_hand_size(options: dict[str, Any]) -> int:
    draw = options["terrain_draw"]
    sizes: dict[str, int] = {STANDARD: 1, HAND: options["hand_size"], SCEADEAU: 2}
    return sizes.get(draw, 0)


def top_card(em: Emitter, rng: random.Random) -> str | None:
    """The top card of the draw pile, reshuffling the discards when the pile is empty."""
    s = em.state
    if not s.draw_pile:
        if not s.discard:
            return None
        order = shuffled(s.discard, rng)
        # The new order is secret: kept for the server only (seat -1 never views).
        em.emit("terrain_deck_reshuffled", {"cards": len(order)}, {-1: {"draw_pile": order}})
    return s.draw_pile[0]


def reveal(em: Emitter, seat: int, terrain: str, source: str, replacement: bool = False) -> None:
    """Play ``terrain`` face up as the turn's card.

    The turn's own card (not one replacing it) is marked when no empty hex of its terrain
    is left: Oracle and Barn then sit the whole turn out (FAQ).
    """
    public: dict[str, Any] = {"seat": seat, "terrain": terrain, "source": source}
    if not replacement and not free_hexes(em.state, terrain):
        public["no_empty_hex"] = True
    em.emit("terrain_card_revealed", public)


def reveal_top(em: Emitter, rng: random.Random, seat: int, replacement: bool = False) -> bool:
    """Play the top card of the draw pile face up; False when there is no card at all."""
    terrain = top_card(em, rng)
    if terrain is None:
        return False
    reveal(em, seat, terrain, "draw_pile", replacement)
    return True


def cut_short(em: Emitter, seat: int) -> None:
    """No terrain can be played at all: the mandatory action is void this turn."""
    s = em.state
    em.emit("mandatory_action_cut_short", {"seat": seat, "builds_skipped": max(0, 3 - s.placed)})


def offer_terrain(em: Emitter, rng: random.Random, seat: int) -> None:
    """Start of turn: reveal the card where no choice exists, else wait for the player."""
    s = em.state
    draw = s.terrain_draw
    automatic = draw == STANDARD or (draw == SCEADEAU and s.turns[seat] >= 3)
    if (automatic and len(s.hands[seat]) <= 1) or (draw == HAND and not s.hands[seat]):
        if s.hands[seat]:
            reveal(em, seat, s.hands[seat][0], "hand")
        elif not reveal_top(em, rng, seat):
            cut_short(em, seat)
    elif not choice_commands(s, seat):
        cut_short(em, seat)


def choice_commands(s: State, seat: int) -> list[dict[str, Any]]:
    """Every terrain-choice command open to ``seat`` at the start of its turn."""
    draw = s.terrain_draw
    if draw == CHOOSE:
        return [
            {"type": "choose_terrain", "terrain": t} for t in BUILDABLE_TERRAINS if free_hexes(s, t)
        ]
    if draw == DRAFT:
        commands = [{"type": "take_terrain_card", "terrain": t} for t in sorted(set(s.face_up))]
        if s.draw_pile or s.discard:
            commands.append({"type": "draw_terrain_card"})
        # A Crossroads extra card may be played instead.
        commands += [
            {"type": "play_terrain_card", "terrain": t} for t in sorted(set(s.hands[seat]))
        ]
        return commands
    commands = [{"type": "play_terrain_card", "terrain": t} for t in sorted(set(s.hands[seat]))]
    if draw == SCEADEAU and s.turns[seat] == 2 and s.hands[seat]:
        commands.append({"type": "swap_terrain_card"})
    return commands


def choose(em: Emitter, rng: random.Random, seat: int, command: dict[str, Any]) -> None:
    """Carry out a terrain-choice command already known to be legal."""
    kind = command["type"]
    s = em.state
    if kind == "choose_terrain":
        reveal(em, seat, command["terrain"], "choice")
    elif kind == "play_terrain_card":
        reveal(em, seat, command["terrain"], "hand")
    elif kind == "swap_terrain_card":
        em.emit(
            "terrain_card_discarded",
            {"seat": seat, "terrain": s.hands[seat][0], "source": "hand"},
        )
        if not reveal_top(em, rng, seat):
            cut_short(em, seat)
    elif kind == "take_terrain_card":
        reveal(em, seat, command["terrain"], "face_up")
        refill = top_card(em, rng)
        if refill is not None:
            em.emit("terrain_card_drawn", {"seat": seat, "to": "face_up", "terrain": refill})
    elif kind == "draw_terrain_card" and not reveal_top(em, rng, seat):
        cut_short(em, seat)


VARIANTS_OF = {
    "choose_terrain": (CHOOSE,),
    "play_terrain_card": (STANDARD, DRAFT, HAND, SCEADEAU),
    "swap_terrain_card": (SCEADEAU,),
    "take_terrain_card": (DRAFT,),
    "draw_terrain_card": (DRAFT,),
}


def check_choice(s: State, seat: int, command: dict[str, Any]) -> None:
    """Refuse a malformed or unavailable terrain choice with a clear reason."""
    kind = command["type"]
    require(
        s.terrain_draw in VARIANTS_OF[kind],
        "wrong_variant",
        f"This table plays terrain draw {s.terrain_draw!r}, where {kind!r} does not exist.",
    )
    require(
        s.phase == CHOOSE_TERRAIN,
        "terrain_already_chosen",
        "Your terrain for this turn is already known.",
    )
    if command in choice_commands(s, seat):
        return
    fields = {"type"} if kind in ("draw_terrain_card", "swap_terrain_card") else {"type", "terrain"}
    require(
        set(command) == fields, "malformed_command", f"{kind!r} takes the fields: {sorted(fields)}."
    )
    terrain = command.get("terrain")
    if "terrain" in fields:
        require(
            terrain in BUILDABLE_TERRAINS,
            "bad_terrain",
            f"'terrain' must be one of: {', '.join(BUILDABLE_TERRAINS)}.",
        )
    name = TERRAIN_NAMES.get(terrain, "") if isinstance(terrain, str) else ""
    code, message = {
        "choose_terrain": ("terrain_exhausted", f"No empty {name} hex is left; choose another."),
        "play_terrain_card": ("card_not_in_hand", f"You hold no {name} card."),
        "take_terrain_card": ("card_not_face_up", f"No {name} card lies face up."),
        "draw_terrain_card": ("draw_pile_empty", "There is no card left to draw."),
        "swap_terrain_card": ("cannot_swap", "You may swap your kept card only on your turn 2."),
    }[kind]
    raise IllegalCommand(code, message)


def draw_up(em: Emitter, rng: random.Random, seat: int) -> None:
    """End of turn: unplayed cards discarded, secret cards drawn back up to the hand size,
    then the Crossroads tile's extra card."""
    s = em.state
    draw = s.terrain_draw
    # Sceadeau's turn 1 keeps the second opening card for turn 2.
    if not (draw == SCEADEAU and s.turns[seat] == 1):
        if draw != HAND:
            # Only a Crossroads extra card can be left unplayed: it is discarded face up.
            for terrain in list(s.hands[seat]):
                em.emit(
                    "terrain_card_discarded", {"seat": seat, "terrain": terrain, "source": "hand"}
                )
        target = hand_size(s.options)
        while len(s.hands[seat]) < target:
            if not _draw_secret(em, rng, seat, {}):
                return
    if draw != CHOOSE and any(t["tile"] == "crossroads" for t in s.held[seat]):
        _draw_secret(em, rng, seat, {"extra": True})


def _draw_secret(em: Emitter, rng: random.Random, seat: int, extra: dict[str, Any]) -> bool:
    terrain = top_card(em, rng)
    if terrain is None:
        return False
    em.emit(
        "terrain_card_drawn", {"seat": seat, "to": "hand", **extra}, {seat: {"terrain": terrain}}
    )
    return True


def no_terrain_left(em: Emitter, rng: random.Random, seat: int) -> None:
    """No empty hex of the card's terrain during the mandatory action.

    Publisher rule: the card is removed from the game and a new one drawn (the top card of
    the draw pile, in every card variant) when the mandatory action needs it: at once while
    it is under way, else when the player starts it (``turn.py``). In ``choose`` the player
    picks another terrain.
    Under the designer's rule (``designer_no_terrain``) the targets already fall back to
    any terrain, so reaching here means the board has no empty buildable hex.
    """
    s = em.state
    if s.options["designer_no_terrain"] or s.card is None:
        cut_short(em, seat)
    elif s.terrain_draw == CHOOSE:
        em.emit("terrain_exhausted", {"seat": seat, "terrain": s.card})
        if not choice_commands(em.state, seat):
            cut_short(em, seat)
    else:
        em.emit("terrain_card_removed", {"seat": seat, "terrain": s.card})
        if not reveal_top(em, rng, seat, replacement=True):
            cut_short(em, seat)
