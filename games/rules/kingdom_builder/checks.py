"""Input checking shared by every command: fields, hexes, the phase of the turn."""

from __future__ import annotations

from typing import Any

from games.rules.base import IllegalCommand, require
from games.rules.kingdom_builder.board import COLS, ROWS
from games.rules.kingdom_builder.state import DISCARD_TILE, TURN

State = Any  # games.rules.kingdom_builder.state.State


def fields(command: dict[str, Any], expected: set[str]) -> None:
    require(
        set(command) == expected,
        "malformed_command",
        f"{command.get('type')!r} takes exactly the fields: {', '.join(sorted(expected))}.",
    )


def parse_hex(command: dict[str, Any], name: str) -> int:
    """A ``[row, col]`` field as a flat index, refusing junk and off-board hexes."""
    value = command.get(name)
    if not (
        isinstance(value, list | tuple)
        and len(value) == 2
        and all(isinstance(v, int) and not isinstance(v, bool) for v in value)
    ):
        raise IllegalCommand("bad_hex", f"'{name}' must be a hex as [row, col].")
    row: int
    col: int
    row, col = value
    require(
        0 <= row < ROWS and 0 <= col < COLS,
        "off_board",
        f"Hex [{row}, {col}] is off the board (rows and columns run 0-19).",
    )
    return row * COLS + col


def require_turn_phase(s: State) -> None:
    require(
        s.phase != DISCARD_TILE,
        "discard_tile_first",
        "First choose which of your two alike tiles to give up.",
    )
    require(s.phase == TURN, "choose_terrain_first", "Choose your terrain for this turn first.")


def require_no_action(s: State) -> None:
    """No other command while a multi-step Nomads action (Quarry, Donation...) is open."""
    if s.action is not None:
        raise IllegalCommand(
            "action_in_progress",
            f"Finish what your {s.action['tile'].replace('_', ' ')} tile began first.",
        )


def require_extra_action_time(s: State) -> None:
    """Tiles go entirely before or after the mandatory action, never in its middle."""
    require_turn_phase(s)
    require_no_action(s)
    require(
        not s.mandatory_in_progress(),
        "mandatory_action_in_progress",
        "Finish your mandatory action first: tiles are used before or after it.",
    )
