"""A turn: place a castle, draw and place a tile, or place the starting tile; pass only
when none is possible. Command validation, the facts a command produces, and the list
of legal commands."""

from __future__ import annotations

import random
from typing import Any

from games.rules.base import Command, Event, command_type, require
from games.rules.kingdoms.board import COLUMNS, LINES, ROWS, SPACES, piece_of, space
from games.rules.kingdoms.epochs import Facts, can_act, end_epoch, epoch_is_over
from games.rules.kingdoms.scoring import score_lines
from games.rules.kingdoms.state import KingdomsState, copy_state
from games.rules.kingdoms.variants import lines_scored_as_you_go

COMMAND_TYPES = ("place_castle", "draw_tile", "place_tile", "place_starting_tile", "pass")
_FIELDS = {
    "place_castle": ("type", "rank", "space"),
    "draw_tile": ("type",),
    "place_tile": ("type", "space"),
    "place_starting_tile": ("type", "space"),
    "pass": ("type",),
}
_NO_LUCK_PLACE_TILE = ("type", "tile", "space")


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _check_fields(command: Command, expected: tuple[str, ...]) -> None:
    extra = sorted(str(k) for k in command if k not in expected)
    require(
        not extra,
        "unexpected_field",
        f"A {command['type']} command has no field {', '.join(map(repr, extra))}.",
    )
    missing = [k for k in expected if k not in command]
    require(
        not missing,
        "missing_field",
        f"A {command['type']} command needs {', '.join(map(repr, missing))}.",
    )


def _empty_space(state: KingdomsState, value: Any) -> int:
    """The index of the empty space a command names as ``[row, column]``."""
    require(
        isinstance(value, list | tuple) and len(value) == 2 and all(_is_int(v) for v in value),
        "bad_space",
        'A space is written [row, column], e.g. "space": [2, 3].',
    )
    row: int
    column: int
    row, column = value
    require(
        0 <= row < ROWS and 0 <= column < COLUMNS,
        "off_board",
        f"Space [{row}, {column}] is off the board (rows 0-{ROWS - 1}, columns 0-{COLUMNS - 1}).",
    )
    i = row * COLUMNS + column
    require(
        state.grid[i] is None,
        "space_occupied",
        f"Space [{row}, {column}] is taken; pieces never move within an epoch.",
    )
    return i


def _action(state: KingdomsState, seat: int, command: Command) -> Event:
    """Validate one command and return the fact it produces (before its consequences)."""
    kind = command_type(command, COMMAND_TYPES)
    no_luck = state.options["no_luck"]
    _check_fields(
        command, _NO_LUCK_PLACE_TILE if no_luck and kind == "place_tile" else _FIELDS[kind]
    )
    if state.drawn is not None:
        require(
            kind == "place_tile",
            "must_place_drawn_tile",
            f"You drew {state.drawn}: place it face up on an empty space now.",
        )
    if kind == "place_castle":
        rank = command["rank"]
        require(_is_int(rank) and 1 <= rank <= 4, "bad_rank", "A castle's rank is 1, 2, 3 or 4.")
        require(
            state.castles[seat][rank - 1] > 0,
            "no_castle_of_rank",
            f"You have no rank-{rank} castle left to place.",
        )
        i = _empty_space(state, command["space"])
        return Event("castle_placed", {"seat": seat, "rank": rank, "space": space(i)})
    if kind == "draw_tile":
        require(
            not no_luck,
            "choose_a_tile",
            "In No Luck the tiles lie face up: choose one with place_tile.",
        )
        require(bool(state.supply), "supply_empty", "The supply is empty: no tile to draw.")
        return Event("tile_drawn", {"seat": seat, "tile": state.supply[0]})
    if kind == "place_tile":
        if no_luck:
            tile = command["tile"]
            require(
                isinstance(tile, str) and tile in state.supply,
                "tile_not_available",
                f"Tile {tile!r} is not in the face-up supply.",
            )
            source = "face_up_supply"
        else:
            tile = state.drawn
            require(
                tile is not None,
                "no_drawn_tile",
                "Draw a tile first (draw_tile), then place it.",
            )
            source = "supply"
        i = _empty_space(state, command["space"])
        return Event(
            "tile_placed", {"seat": seat, "tile": tile, "space": space(i), "source": source}
        )
    if kind == "place_starting_tile":
        tile = state.starting[seat]
        require(
            tile is not None,
            "no_starting_tile",
            "You hold no starting tile (placed already this epoch, or none in No Luck).",
        )
        i = _empty_space(state, command["space"])
        return Event("starting_tile_placed", {"seat": seat, "tile": tile, "space": space(i)})
    require(
        not can_act(state, seat),
        "cannot_pass",
        "You may pass only when you can neither place a castle nor a tile.",
    )
    return Event("turn_passed", {"seat": seat})


def decide(state: KingdomsState, seat: int, command: Command, rng: random.Random) -> list[Event]:
    require(not state.finished, "game_over", "The game is over.")
    require(
        _is_int(seat) and seat == state.turn,
        "not_your_turn",
        f"It is seat {state.turn}'s turn, not yours.",
    )
    action = _action(state, seat, command)
    facts = Facts(copy_state(state))
    facts.add(action)
    if action.type == "tile_drawn":
        return facts.events  # the drawer places it next, on the same turn
    if "space" in action.public:
        row, column = action.public["space"]
        _score_filled_lines(facts, row * COLUMNS + column)
    if epoch_is_over(facts.state):
        end_epoch(facts, rng)
    return facts.events


def _score_filled_lines(facts: Facts, i: int) -> None:
    """Score as You Go: score each line the placement just filled, row first."""
    state = facts.state
    lines = lines_scored_as_you_go(state, i)
    if not lines:
        return
    pieces = [piece_of(cell) for cell in state.grid]
    for n, gains in zip(lines, score_lines(pieces, lines), strict=True):
        per_seat = [gains.get(seat, 0) for seat in state.seats]
        gold = [g + d for g, d in zip(facts.state.gold, per_seat, strict=True)]
        facts.add(
            Event(
                "line_scored",
                {
                    "epoch": state.epoch,
                    "line": LINES[n].kind,
                    "index": LINES[n].index,
                    "gains": per_seat,
                    "gold": gold,
                },
            )
        )


def legal_commands(state: KingdomsState, seat: int) -> list[Command]:
    if state.finished or seat != state.turn or not _is_int(seat):
        return []
    empty = [i for i in range(SPACES) if state.grid[i] is None]
    if state.drawn is not None:
        return [{"type": "place_tile", "space": space(i)} for i in empty]
    commands: list[Command] = []
    for rank, count in enumerate(state.castles[seat], start=1):
        if count:
            commands.extend(
                {"type": "place_castle", "rank": rank, "space": space(i)} for i in empty
            )
    if state.options["no_luck"]:
        for tile in state.supply:
            commands.extend({"type": "place_tile", "tile": tile, "space": space(i)} for i in empty)
    elif state.supply and empty:
        commands.append({"type": "draw_tile"})
    if state.starting[seat] is not None:
        commands.extend({"type": "place_starting_tile", "space": space(i)} for i in empty)
    return commands or [{"type": "pass"}]
