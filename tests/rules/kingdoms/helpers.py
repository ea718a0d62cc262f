"""Small builders for Kingdoms positions and games."""

from __future__ import annotations

import json
import random
from typing import Any

from games.rules.base import Event
from games.rules.kingdoms import KINGDOMS
from games.rules.kingdoms.board import COLUMNS, ROWS, index
from games.rules.kingdoms.state import KingdomsState

R = KINGDOMS


def position(cells: dict[tuple[int, int], str]) -> dict[str, Any]:
    """A position file: the given cells, every other space empty."""
    return {"grid": [[cells.get((r, c), "") for c in range(COLUMNS)] for r in range(ROWS)]}


def position_rows(rows: list[list[str]]) -> dict[str, Any]:
    return {"grid": rows}


def new_game(players: int = 2, seed: int = 0, **options: Any) -> tuple[KingdomsState, list[Event]]:
    events = R.setup(options, players, random.Random(seed))
    return R.fold(events), events


def put(state: KingdomsState, cells: dict[tuple[int, int], str]) -> KingdomsState:
    """Place tile ids or castle codes directly, taking placed tiles out of the supply
    and the starting tiles so that the state stays a possible one."""
    for (r, c), cell in cells.items():
        state.grid[index(r, c)] = cell
        if cell in state.supply:
            state.supply.remove(cell)
        state.starting = [None if t == cell else t for t in state.starting]
    return state


def act(
    state: KingdomsState, seat: int, command: dict[str, Any], seed: int = 0
) -> tuple[KingdomsState, list[Event]]:
    """Decide and fold on a copy: (new state, the events)."""
    events = R.decide(state, seat, command, random.Random(seed))
    return R.fold(events, R.copy_state(state)), events


def types(events: list[Event]) -> list[str]:
    return [e.type for e in events]


def play_random_game(
    seed: int, players: int, options: dict[str, Any] | None = None
) -> tuple[KingdomsState, list[Event]]:
    rng = random.Random(seed)
    events = R.setup(options or {}, players, rng)
    state = R.fold(events)
    while R.outcome(state) is None:
        (seat,) = R.to_act(state)
        new = R.decide(state, seat, rng.choice(R.legal_commands(state, seat)), rng)
        events += new
        state = R.fold(new, state)
    return state, events


def json_round_trip(value: Any) -> Any:
    return json.loads(json.dumps(value))


def string_values(value: Any) -> set[str]:
    """Every string value (not dict key) anywhere in a JSON-like value."""
    found: set[str] = set()
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            found.add(item)
        elif isinstance(item, dict):
            stack.extend(item.values())
        elif isinstance(item, list | tuple):
            stack.extend(item)
    return found
