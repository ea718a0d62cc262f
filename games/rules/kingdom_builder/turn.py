"""A turn: the mandatory action, who may do what when, the end of a turn and of the game.

``decide`` validates one command, emits its events into a scratch copy (``Emitter``) and
then lets the game run on by itself (``settle``) until a player has a real choice: the
no-terrain rule, the end of a turn once nothing is left to do, the next turn's card.
Location tiles are in ``extra_actions``, nomad tiles and multi-step actions in ``nomads``,
what follows a settlement's arrival or departure in ``arrival``.
"""

from __future__ import annotations

import random
from typing import Any

from games.rules.base import Event, IllegalCommand, command_type, rank_by_score, require
from games.rules.kingdom_builder import deck, extra_actions, nomads, undo
from games.rules.kingdom_builder.arrival import after_build, discard_commands, discard_tile
from games.rules.kingdom_builder.board import coords
from games.rules.kingdom_builder.checks import (
    fields,
    parse_hex,
    require_no_action,
    require_turn_phase,
)
from games.rules.kingdom_builder.emitter import Emitter
from games.rules.kingdom_builder.placement import build_targets, free_buildable, free_hexes
from games.rules.kingdom_builder.scoring import score_state
from games.rules.kingdom_builder.state import CHOOSE_TERRAIN, DISCARD_TILE, TURN, State
from games.rules.kingdom_builder.terrain import TERRAIN_NAMES

COMMANDS = (
    "build",
    "use_tile",
    "discard_tile",
    "end_turn",
    *deck.CHOICE_COMMANDS,
    "take_back_piece",
    "use_nomad_tile",
    *nomads.ACTION_COMMANDS,
    undo.UNDO,
)


# ---- the mandatory action ------------------------------------------------------------------
def mandatory_targets(s: State) -> list[int]:
    """Where the next settlement of the mandatory action may go."""
    if s.card is None:
        return []
    candidates = free_hexes(s, s.card)
    if not candidates and s.options["designer_no_terrain"]:
        candidates = free_buildable(s)  # designer's rule: any terrain
    return build_targets(s, candidates, s.active)


def replacement_due(s: State) -> bool:
    """The mandatory action has not begun and no empty hex of its card's terrain is left.

    Publisher rule: the card is replaced, but only when the mandatory action needs it. The
    player may use tiles first (``draw_terrain_card`` then starts the mandatory action);
    one freeing a hex of the card's terrain (Paddock) keeps the card, and no card is drawn.
    """
    return (
        s.phase == TURN
        and s.action is None
        and s.card is not None
        and s.placed == 0
        and not s.mandatory_done()
        and not s.options["designer_no_terrain"]
        and not mandatory_targets(s)
    )


def draw_replacement(em: Emitter, rng: random.Random, seat: int, command: dict[str, Any]) -> None:
    """Start the mandatory action on a new card: the turn's card has no empty hex left."""
    fields(command, {"type"})
    require_no_action(em.state)
    require(
        replacement_due(em.state),
        "terrain_not_exhausted",
        "A new terrain card is drawn only to start your mandatory action when no empty hex "
        "of your card's terrain is left.",
    )
    deck.no_terrain_left(em, rng, seat)


def build(em: Emitter, seat: int, command: dict[str, Any]) -> None:
    s = em.state
    fields(command, {"type", "hex"})
    target = parse_hex(command, "hex")
    require_turn_phase(s)
    if s.action is not None and s.action["kind"] == "donation":
        nomads.continue_action(em, seat, command)
        return
    require_no_action(s)
    require(
        not s.mandatory_done(),
        "mandatory_action_done",
        "You have built all the settlements of your mandatory action this turn.",
    )
    if target not in mandatory_targets(s):
        _explain_refused_build(s, seat, target)
    em.emit(
        "settlement_built",
        {"seat": seat, "hex": coords(target), "terrain": s.board.terrain[target], "tile": None},
    )
    after_build(em, seat, target)


def _explain_refused_build(s: State, seat: int, target: int) -> None:
    terrain = TERRAIN_NAMES[s.card] if s.card else "?"
    require(s.owner[target] < 0, "hex_occupied", "A settlement already stands there.")
    require(s.owner[target] == -1, "hex_occupied", "A wall or a warrior stands there.")
    require(
        s.board.buildable[target],
        "not_buildable",
        "Settlements are built only on grass, canyon, desert, flower field or forest.",
    )
    require(
        target not in s.guarded,
        "next_to_warrior",
        "A warrior stands next to that hex: nobody may build there.",
    )
    if free_hexes(s, s.card or ""):
        require(
            s.board.terrain[target] == s.card,
            "wrong_terrain",
            f"Your terrain card this turn is {terrain}.",
        )
    raise IllegalCommand(
        "must_build_adjacent",
        f"You have a settlement next to an empty {terrain} hex, so this settlement must go "
        "next to one of yours.",
    )


# ---- timing ----------------------------------------------------------------------------------
def tiles_allowed_now(s: State) -> bool:
    """Tiles go entirely before or after the mandatory action, never in its middle."""
    return s.phase == TURN and s.action is None and not s.mandatory_in_progress()


def usable_tiles(s: State, seat: int) -> list[str]:
    return extra_actions.usable_tiles(s, seat)


def has_extra_action(s: State, seat: int) -> bool:
    """Whether anything but ending the turn is open (mandatory action already done)."""
    return extra_actions.any_tile_usable(s, seat) or bool(nomads.start_commands(s, seat))


# ---- the end of a turn and of the game ------------------------------------------------------
def end_turn(em: Emitter, rng: random.Random, seat: int) -> None:
    s = em.state
    if s.card is not None and s.terrain_draw != deck.CHOOSE:
        em.emit("terrain_card_discarded", {"seat": seat, "terrain": s.card, "source": "play"})
    nomads.expire_nomad_tiles(em, seat)
    deck.draw_up(em, rng, seat)
    em.emit("turn_ended", {"seat": seat})
    following = (seat + 1) % s.players
    if s.end_triggered and following == s.start_player:
        finish(em)
    else:
        start_turn(em, rng, following)


def start_turn(em: Emitter, rng: random.Random, seat: int) -> None:
    em.emit("turn_started", {"seat": seat, "turn": em.state.turns[seat] + 1})
    deck.offer_terrain(em, rng, seat)


def final_scores(s: State) -> dict[int, dict[str, int]]:
    return score_state(s)


def finish(em: Emitter) -> None:
    scores = final_scores(em.state)
    totals = {seat: line["total"] for seat, line in scores.items()}
    em.emit(
        "game_finished",
        {
            "scores": {str(seat): total for seat, total in totals.items()},
            "ranking": rank_by_score(totals),
            "breakdown": {
                str(seat): {k: v for k, v in line.items() if k != "total"}
                for seat, line in scores.items()
            },
        },
    )


def settle(em: Emitter, rng: random.Random) -> None:
    """Run the automatic steps until the active player has a choice (or the game ends)."""
    while True:
        s = em.state
        if s.phase != TURN or s.action is not None:
            return
        seat = s.active
        if not s.mandatory_done() and not mandatory_targets(s):
            if replacement_due(s) and has_extra_action(s, seat):
                return  # tiles first if the player wishes: they may free a hex of the card
            deck.no_terrain_left(em, rng, seat)
            continue
        if s.mandatory_done() and not has_extra_action(s, seat):
            if s.options.get("confirm_end_turn") and undo.can_undo(s, seat):
                return  # the player may still take the last build back, or end the turn
            end_turn(em, rng, seat)  # nothing left to do: the turn ends by itself
            continue
        return


# ---- commands ----------------------------------------------------------------------------
def decide(s: State, seat: int, command: dict[str, Any], rng: random.Random) -> list[Event]:
    require(not s.finished, "game_over", "The game is over.")
    kind = command_type(command, COMMANDS)
    require(isinstance(seat, int) and seat == s.active, "not_your_turn", "It is not your turn.")
    em = Emitter(s)
    if kind == undo.UNDO:
        fields(command, {"type"})
        event = undo.decide_undo(s, seat)
        em.emit(event.type, event.public)
        return em.events
    if kind == "draw_terrain_card" and s.phase == TURN:
        draw_replacement(em, rng, seat, command)
    elif kind in deck.CHOICE_COMMANDS:
        deck.check_choice(s, seat, command)
        deck.choose(em, rng, seat, command)
    elif kind == "build":
        build(em, seat, command)
    elif kind == "use_tile":
        extra_actions.use_tile(em, seat, command)
    elif kind == "take_back_piece":
        extra_actions.take_back_piece(em, seat, command)
    elif kind == "use_nomad_tile":
        nomads.use_nomad_tile(em, seat, command)
    elif kind in nomads.ACTION_COMMANDS:
        nomads.continue_action(em, seat, command)
    elif kind == "discard_tile":
        fields(command, {"type", "location"})
        discard_tile(em, seat, parse_hex(command, "location"))
    else:
        fields(command, {"type"})
        require_turn_phase(s)
        require_no_action(s)
        require(
            s.mandatory_done(),
            "mandatory_action_not_done",
            "Build the settlements of your mandatory action first.",
        )
        end_turn(em, rng, seat)
    settle(em, rng)
    return em.events


def legal_commands(s: State, seat: int) -> list[dict[str, Any]]:
    commands = _legal_commands(s, seat)
    if undo.can_undo(s, seat):
        commands.append({"type": undo.UNDO})
    return commands


def _legal_commands(s: State, seat: int) -> list[dict[str, Any]]:
    if s.finished or seat != s.active:
        return []
    if s.phase == CHOOSE_TERRAIN:
        return deck.choice_commands(s, seat)
    if s.phase == DISCARD_TILE:
        return discard_commands(s, seat)
    if s.action is not None:
        return nomads.action_commands(s, seat)
    commands: list[dict[str, Any]] = []
    if not s.mandatory_done():
        commands.extend({"type": "build", "hex": coords(h)} for h in sorted(mandatory_targets(s)))
    if replacement_due(s):
        commands.append({"type": "draw_terrain_card"})
    usable = usable_tiles(s, seat)
    if tiles_allowed_now(s):
        for key in usable:
            commands.extend(extra_actions.tile_commands(s, seat, key))
        commands.extend(nomads.start_commands(s, seat))
    if s.nomad_held[seat]:
        commands.extend(nomads.outpost_commands(s, seat))
    if s.mandatory_done():
        commands.append({"type": "end_turn"})
    return commands
