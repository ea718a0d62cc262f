"""Small position builders for the Kingdom Builder tests."""

from __future__ import annotations

import random
from typing import Any

import pytest

from games.rules import get_ruleset
from games.rules.base import Event, IllegalCommand
from games.rules.kingdom_builder.board import COLS, board_from_grid
from games.rules.kingdom_builder.placement import WALL
from games.rules.kingdom_builder.state import TURN, State, evolve

RULESET = get_ruleset("kingdom-builder")
FIRST_GAME = ["tavern", "paddock", "oasis", "farm"]

Hex = tuple[int, int]


def h(row: int, col: int) -> int:
    """Flat index of a hex."""
    return row * COLS + col


def new_game(players: int = 2, seed: int = 0, **options: Any) -> State:
    """A freshly set-up game (first-game board unless options say otherwise)."""
    options.setdefault("board", "first_game")
    events = RULESET.setup(options, players, random.Random(seed))
    return RULESET.fold(events)


def grid(letters: dict[Hex, str] | None = None, fill: str = "G") -> list[str]:
    """20 rows of ``fill`` with the given hexes overridden."""
    rows = [[fill] * COLS for _ in range(20)]
    for (r, c), letter in (letters or {}).items():
        rows[r][c] = letter
    return ["".join(row) for row in rows]


def position(
    settlements: dict[int, list[Hex]] | None = None,
    letters: dict[Hex, str] | None = None,
    locations: dict[Hex, str] | None = None,
    held: dict[int, list[tuple[str, Hex]]] | None = None,
    card: str | None = "grass",
    fill: str = "G",
    seat: int = 0,
    players: int = 2,
    nomad_spaces: dict[Hex, str] | None = None,
    nomad_held: dict[int, list[tuple[str, Hex]]] | None = None,
    **options: Any,
) -> State:
    """A game in ``seat``'s turn on a custom board, after the card is revealed.

    ``locations`` puts location hexes (letter L) with 2 tiles each; ``held`` gives tiles
    the seat holds (taken earlier: usable now). ``nomad_spaces`` puts nomad spaces (N)
    with their tile; ``nomad_held`` gives nomad tiles taken last turn (usable now).
    """
    s = new_game(players=players, **options)
    letters = dict(letters or {})
    for hex_ in locations or {}:
        letters[hex_] = "L"
    for hex_ in nomad_spaces or {}:
        letters[hex_] = "N"
    s.board = board_from_grid(grid(letters, fill), {h(*k): v for k, v in (locations or {}).items()})
    s.nomad_tiles = {h(*k): v for k, v in (nomad_spaces or {}).items()}
    for p, tiles in (nomad_held or {}).items():
        for kind, space in tiles:
            s.nomad_held[p].append({"tile": kind, "space": h(*space), "fresh": False})
    s.tiles_left = {h(*k): 2 for k in locations or {}}
    return _lay(s, settlements, held, card, seat)


def real_position(
    settlements: dict[int, list[Hex]] | None = None,
    held: dict[int, list[tuple[str, Hex]]] | None = None,
    card: str | None = "grass",
    seat: int = 0,
    **options: Any,
) -> State:
    """As ``position``, on the real board of a set-up game (first-game board by default)."""
    return _lay(new_game(**options), settlements, held, card, seat)


def _lay(
    s: State,
    settlements: dict[int, list[Hex]] | None,
    held: dict[int, list[tuple[str, Hex]]] | None,
    card: str | None,
    seat: int,
) -> State:
    for p, hexes in (settlements or {}).items():
        for r, c in hexes:
            s.owner[h(r, c)] = p
            s.settlements[p].add(h(r, c))
            s.supply[p] -= 1
    for p, tiles in (held or {}).items():
        for kind, loc in tiles:
            s.held[p].append({"tile": kind, "location": h(*loc), "fresh": False, "used": False})
            s.taken_from[p].add(h(*loc))
            if h(*loc) in s.tiles_left:
                s.tiles_left[h(*loc)] -= 1
    s.active, s.card, s.phase, s.placed = seat, card, TURN, 0
    return s


def play(s: State, command: dict[str, Any], seat: int | None = None, seed: int = 0):
    """Decide and apply one command; returns (new state, events)."""
    seat = s.active if seat is None else seat
    events = RULESET.decide(s, seat, command, random.Random(seed))
    s = RULESET.copy_state(s)
    for event in events:
        s = evolve(s, event)
    return s, events


def types(events: list[Event]) -> list[str]:
    return [e.type for e in events]


def build(r: int, c: int) -> dict[str, Any]:
    return {"type": "build", "hex": [r, c]}


def use(tile: str, to: Hex, source: Hex | None = None) -> dict[str, Any]:
    command: dict[str, Any] = {"type": "use_tile", "tile": tile, "to": list(to)}
    if source is not None:
        command["from"] = list(source)
    return command


def settled(s: State, seat: int) -> set[Hex]:
    return {divmod(i, COLS) for i in s.settlements[seat]}


def fold_in(s: State, kind: str, **public: Any) -> State:
    """Apply one recorded event (a quick way to lay pieces in a position)."""
    return evolve(s, Event(kind, public))


def warrior(s: State, seat: int, hex_: Hex) -> State:
    return fold_in(s, "piece_placed", seat=seat, piece="warrior", hex=list(hex_))


def wagon(s: State, seat: int, hex_: Hex, piece: str = "wagon") -> State:
    return fold_in(s, "piece_placed", seat=seat, piece=piece, hex=list(hex_))


def walls(s: State, *hexes: Hex) -> State:
    for hex_ in hexes:
        s.owner[h(*hex_)] = WALL
        s.walls.add(h(*hex_))
        s.walls_left -= 1
    return s


def commands_of(s: State, kind: str, seat: int | None = None) -> list[dict[str, Any]]:
    seat = s.active if seat is None else seat
    return [c for c in RULESET.legal_commands(s, seat) if c["type"] == kind]


def hexes_in(commands: list[dict[str, Any]], key: str) -> set[Hex]:
    return {tuple(c[key]) for c in commands}


def finish_turn(s: State) -> State:
    """Play the active seat's cheapest way to the end of its turn (first builds)."""
    seat = s.active
    while s.active == seat and not s.finished:
        commands = RULESET.legal_commands(s, seat)
        command = next((c for c in commands if c["type"] == "end_turn"), commands[0])
        s, _ = play(s, command)
    return s


def refused(s, command, seat=None) -> str:
    with pytest.raises(IllegalCommand) as error:
        RULESET.decide(s, s.active if seat is None else seat, command, random.Random(0))
    return error.value.code


def builds(s) -> set[tuple[int, int]]:
    return {tuple(c["hex"]) for c in RULESET.legal_commands(s, s.active) if c["type"] == "build"}
