"""Table options and the opening: the board laid, the cards chosen, the terrain deck dealt."""

from __future__ import annotations

import random
from typing import Any

from games.rules.base import Event, IllegalCommand, Option, Pick, PickItem
from games.rules.kingdom_builder import deck
from games.rules.kingdom_builder.board import (
    BASE_SECTIONS,
    CROSSROADS_SECTIONS,
    FIRST_GAME_CARDS,
    FIRST_GAME_SECTIONS,
    NOMADS_SECTIONS,
    assemble,
    coords,
)
from games.rules.kingdom_builder.cards import CARD_NAMES, CARDS, NOMADS_CARDS
from games.rules.kingdom_builder.emitter import Emitter
from games.rules.kingdom_builder.nomads import deal_nomad_tiles
from games.rules.kingdom_builder.state import EXPANSION_DEFAULTS, STONE_WALLS
from games.rules.kingdom_builder.tasks import TASKS
from games.rules.kingdom_builder.terrain import shuffled, terrain_deck

TILES_PER_LOCATION = 2
CARDS_IN_PLAY = 3
BASE_PLAYERS = (2, 4)
NOMADS_PLAYERS = (2, 5)  # the Nomads box brings a fifth colour


def section_label(name: str) -> str:
    """A section's name for players: "city_hall_and_outpost" -> "City Hall and Outpost"."""
    return " ".join(w if w == "and" else w.capitalize() for w in name.split("_"))


# Which expansion option brings a section or card into the pools (None: the base game).
_NEEDS = {"base": None, "nomads": "nomads", "crossroads": "crossroads"}
SECTION_PICK = Pick(
    4,
    tuple(
        PickItem(name, section_label(name), _NEEDS[expansion])
        for expansion, names in (
            ("base", BASE_SECTIONS),
            ("nomads", NOMADS_SECTIONS),
            ("crossroads", CROSSROADS_SECTIONS),
        )
        for name in names
    ),
)
CARD_PICK = Pick(
    CARDS_IN_PLAY,
    tuple(PickItem(key, CARD_NAMES[key]) for key in CARDS)
    + tuple(PickItem(key, CARD_NAMES[key], "nomads") for key in NOMADS_CARDS),
    default_label="3 at random (the first game's board brings its own 3)",
)
CHOSEN = {"board": "chosen"}

OPTIONS: tuple[Option, ...] = (
    Option(
        "board",
        "random",
        "The board: 4 random sections, each upright or turned; the first game's board; or "
        "the 4 sections you choose.",
        ("random", "first_game", "chosen"),
        label="Board",
        labels=(
            "4 random sections",
            "First game (Tavern, Paddock, Oasis, Farm)",
            "Choose the sections",
        ),
    ),
    Option(
        "sections",
        None,
        "With board 'chosen': 4 section names for top-left, top-right, bottom-left, "
        f"bottom-right, among: {', '.join(BASE_SECTIONS)} (with Nomads also "
        f"{', '.join(NOMADS_SECTIONS)}; with Crossroads also {', '.join(CROSSROADS_SECTIONS)}).",
        label="Sections",
        applies_when=CHOSEN,
        pick=SECTION_PICK,
        control="board_sections",
    ),
    Option(
        "rotations",
        None,
        "With board 'chosen': which of the 4 sections lie turned 180°, upside down (a yes "
        "or no for each, in the sections' order; none by default).",
        label="Rotations",
        applies_when=CHOSEN,
        control="board_rotations",
    ),
    Option(
        "cards",
        None,
        f"The 3 Kingdom Builder cards in play (default 3 at random) among: {', '.join(CARDS)} "
        f"(with Nomads also {', '.join(NOMADS_CARDS)}).",
        label="Kingdom Builder cards",
        pick=CARD_PICK,
    ),
    Option(
        "terrain_draw",
        deck.STANDARD,
        "How terrain cards are drawn: standard, draft (cards face up), hand (several in "
        "hand), choose (any terrain each turn), sceadeau (two cards at the start).",
        deck.TERRAIN_DRAWS,
        label="Terrain cards",
        labels=(
            "Standard: draw one card each turn",
            "Draft: pick from cards lying face up",
            "Hand: hold several cards",
            "Choose any terrain each turn",
            "Sceadeau: two cards at the start",
        ),
    ),
    Option(
        "draft_size",
        3,
        "Draft variant: how many terrain cards lie face up.",
        (2, 3, 4, 5),
        label="Cards face up",
        applies_when={"terrain_draw": deck.DRAFT},
    ),
    Option(
        "hand_size",
        3,
        "Hand variant: how many terrain cards each player holds.",
        (2, 3, 4),
        label="Cards in hand",
        applies_when={"terrain_draw": deck.HAND},
    ),
    Option(
        "designer_no_terrain",
        False,
        "Designer's rule: when no empty hex of the card's terrain is left, the remaining "
        "settlements go on any terrain (instead of replacing the card).",
        label="Designer's rule for a used-up terrain",
    ),
    Option(
        "undo",
        True,
        "Undo: a player may take back their builds and tile moves of the turn until a "
        "terrain card is drawn or anything hidden is revealed.",
    ),
    Option(
        "confirm_end_turn",
        True,
        "With undo: when the last build leaves nothing else to do, the turn waits for End "
        "turn, so that build can still be taken back.",
        label="Confirm the end of each turn",
        applies_when={"undo": True},
    ),
    Option(
        "nomads",
        False,
        "Nomads expansion: its 4 sections and 3 cards join the random draws; nomad tiles, "
        "25 stone walls, and a fifth player.",
        label="Nomads expansion",
    ),
    Option(
        "crossroads",
        False,
        "Crossroads expansion: its 4 sections join the random draw; one task card per "
        "Crossroads section in play; warriors, wagons, ships and city halls.",
        label="Crossroads expansion",
    ),
    Option(
        "crossroads_pieces_score",
        False,
        "Crossroads, later ruling: warriors, wagons and ships stay on the board at the end "
        "and count as settlements (the rulebook removes them before scoring).",
        label="Crossroads pieces count at the end",
        applies_when={"crossroads": True},
    ),
)


def section_pool(options: dict[str, Any]) -> tuple[str, ...]:
    """The sections the board may use under these options."""
    pool = BASE_SECTIONS
    if options.get("nomads"):
        pool += NOMADS_SECTIONS
    if options.get("crossroads"):
        pool += CROSSROADS_SECTIONS
    return pool


def card_pool(options: dict[str, Any]) -> tuple[str, ...]:
    return (*CARDS, *NOMADS_CARDS) if options.get("nomads") else tuple(CARDS)


def seat_range(options: dict[str, Any]) -> tuple[int, int]:
    return NOMADS_PLAYERS if (options or {}).get("nomads") else BASE_PLAYERS


def _bad(message: str) -> IllegalCommand:
    return IllegalCommand("bad_option", message)


def check_options(options: dict[str, Any]) -> dict[str, Any]:
    """Cross-option checks; returns options with 'rotations' and 'cards' normalised."""
    options = dict(options)
    for name in ("draft_size", "hand_size"):
        if type(options[name]) is not int:
            raise _bad(f"Option {name!r} must be a whole number.")
    pool = section_pool(options)
    sections, rotations = options["sections"], options["rotations"]
    if options["board"] == "chosen":
        if (
            not isinstance(sections, list)
            or len(sections) != 4
            or not all(isinstance(s, str) and s in pool for s in sections)
            or len(set(sections)) != 4
        ):
            raise _bad(f"'sections' must list 4 different sections among: {', '.join(pool)}.")
        if rotations is None:
            rotations = [False] * 4
        if not isinstance(rotations, list) or len(rotations) != 4:
            raise _bad("'rotations' must list 4 booleans.")
        if not all(isinstance(r, bool) for r in rotations):
            raise _bad("'rotations' must list 4 booleans.")
        options["rotations"] = list(rotations)
    elif sections is not None or rotations is not None:
        raise _bad("'sections' and 'rotations' need board 'chosen'.")
    cards, allowed = options["cards"], card_pool(options)
    if cards is not None:
        if (
            not isinstance(cards, list)
            or len(cards) != CARDS_IN_PLAY
            or not all(isinstance(c, str) and c in allowed for c in cards)
            or len(set(cards)) != CARDS_IN_PLAY
        ):
            raise _bad(f"'cards' must list 3 different cards among: {', '.join(allowed)}.")
        options["cards"] = list(cards)
    if options["crossroads_pieces_score"] and not options["crossroads"]:
        raise _bad("'crossroads_pieces_score' needs the Crossroads expansion.")
    return options


def _layout(options: dict[str, Any], rng: random.Random) -> list[list[Any]]:
    if options["board"] == "first_game":
        return [[name, False] for name in FIRST_GAME_SECTIONS]
    if options["board"] == "chosen":
        return [[n, r] for n, r in zip(options["sections"], options["rotations"], strict=True)]
    names = rng.sample(sorted(section_pool(options)), 4)
    return [[name, rng.random() < 0.5] for name in names]


def _cards(options: dict[str, Any], rng: random.Random) -> list[str]:
    if options["cards"] is not None:
        return list(options["cards"])
    if options["board"] == "first_game":
        return list(FIRST_GAME_CARDS)
    return rng.sample(sorted(card_pool(options)), CARDS_IN_PLAY)


def opening(options: dict[str, Any], players: int, rng: random.Random) -> list[Event]:
    """The opening facts: ``game_set_up`` (enough for ``evolve(None, ...)``), first turn."""
    from games.rules.kingdom_builder import turn  # turn imports this package's modules

    layout = _layout(options, rng)
    board = assemble(tuple((name, bool(rot)) for name, rot in layout))
    cards = _cards(options, rng)
    expansion: dict[str, Any] = {}
    if options["nomads"]:
        expansion["nomad_spaces"] = deal_nomad_tiles(board, rng)
        expansion["walls"] = STONE_WALLS
    if options["crossroads"]:
        # One random task card per Crossroads section in play.
        laid = sum(1 for name, _ in layout if name in CROSSROADS_SECTIONS)
        expansion["tasks"] = rng.sample(sorted(TASKS), laid)
    pile = [] if options["terrain_draw"] == deck.CHOOSE else shuffled(terrain_deck(), rng)
    private: dict[int, dict[str, Any]] = {}
    size = deck.opening_hand_size(options)
    for seat in range(players):
        private[seat] = {"hand": pile[:size]}
        pile = pile[size:]
    face_up: list[str] = []
    if options["terrain_draw"] == deck.DRAFT:
        face_up, pile = pile[: options["draft_size"]], pile[options["draft_size"] :]
    private[-1] = {"draw_pile": pile}  # the pile's order is for the server only
    start_player = rng.randrange(players)
    em = Emitter(None)
    # The expansions' options are recorded only when set, so that a base game's events are
    # exactly those of the ruleset before the expansions (old logs re-execute as recorded).
    recorded = {
        k: v
        for k, v in options.items()
        if k not in EXPANSION_DEFAULTS or v != EXPANSION_DEFAULTS[k]
    }
    em.emit(
        "game_set_up",
        {
            "options": recorded,
            "players": players,
            "layout": layout,
            "cards": cards,
            "locations": [
                {"hex": coords(i), "tile": kind, "tiles": TILES_PER_LOCATION}
                for i, kind in sorted(board.locations.items())
            ],
            "start_player": start_player,
            "face_up": face_up,
            "draw_pile_size": len(pile),
            **expansion,
        },
        private,
    )
    turn.start_turn(em, rng, start_player)
    turn.settle(em, rng)
    return em.events
