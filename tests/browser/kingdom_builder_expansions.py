"""Positions for the browser tests of the Kingdom Builder expansions.

Positions come from the real engine: a game set up with both expansions is played with
seeded random legal commands (tile and nomad-tile commands preferred, so the expansions'
pieces come into play) until the command wanted is legal. Clicking the highlighted hexes
or the labelled buttons must send exactly one of the engine's legal commands of that type,
and every expansion piece in the view must be drawn.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import pytest

from games.rules import get_ruleset
from tests.browser.test_renderers import mount, sent

RULES = get_ruleset("kingdom-builder")
NOMADS_BOARD = {
    "nomads": True,
    "crossroads": True,
    "board": "chosen",
    "sections": ["quarry", "caravan", "village", "garden"],
}
CROSSROADS_BOARD = {
    "nomads": True,
    "crossroads": True,
    "board": "chosen",
    "sections": [
        "city_hall_and_outpost",
        "barracks_and_crossroads",
        "lighthouse_and_foresters_lodge",
        "monastery_and_wagon",
    ],
}
PREFERRED = ("use_nomad_tile", "use_tile", "take_back_piece")
Command = dict[str, Any]


class Position:
    """A state reached by play, with the active seat's view and legal commands."""

    def __init__(self, state: Any) -> None:
        self.state = state
        self.seat = state.active
        self.view = RULES.view(state, self.seat)
        self.legal = RULES.legal_commands(state, self.seat)

    def of(self, wanted: Callable[[Command], bool]) -> list[Command]:
        return [c for c in self.legal if wanted(c)]


def _set_up(options: dict, players: int, seed: int) -> Any:
    state = None
    for event in RULES.setup(options, players, random.Random(seed)):
        state = RULES.evolve(state, event)
    return state


def play_until(
    options: dict,
    wanted: Callable[[Position], bool],
    *,
    players: int = 2,
    seed: int = 1,
    games: int = 12,
    max_steps: int = 400,
) -> Position:
    """Play seeded random legal commands until ``wanted(position)``; bounded: at most
    ``games`` games (seeds ``seed``, ``seed + 1``...) of ``max_steps`` commands each."""
    for game in range(games):
        rng = random.Random(seed + game)
        state = _set_up(options, players, seed + game)
        for _ in range(max_steps):
            position = Position(state)
            if wanted(position):
                return position
            if state.finished:
                break
            preferred = [c for c in position.legal if c["type"] in PREFERRED]
            pool = preferred if preferred and rng.random() < 0.7 else position.legal
            command = rng.choice(pool)
            for event in RULES.decide(state, position.seat, command, rng):
                state = RULES.evolve(state, event)
    pytest.fail(f"no position reached where the wanted command is legal ({games} games)")


def has(kind: str, **fields: Any) -> Callable[[Position], bool]:
    def check(position: Position) -> bool:
        return any(
            c["type"] == kind and all(test(c.get(k)) for k, test in fields.items())
            for c in position.legal
        )

    return check


def is_(value: Any) -> Callable[[Any], bool]:
    return lambda v: v == value


def present(v: Any) -> bool:
    return v is not None


def show(page, position: Position) -> Any:
    mount(page, "kingdom_builder", position.view, position.legal, position.seat)
    return page.locator("#sandbox .kb-board")


def hex_at(board, pair: list[int]) -> Any:
    return board.locator(f".hex[data-row='{pair[0]}'][data-col='{pair[1]}']")


def targets(board) -> set[tuple[int, int]]:
    cells = board.locator(".hex.target").evaluate_all(
        "els => els.map(e => [Number(e.dataset.row), Number(e.dataset.col)])"
    )
    return {tuple(cell) for cell in cells}


def assert_sent_one_of(page, commands: list[Command]) -> Command:
    got = sent(page)
    assert len(got) == 1, got
    assert got[0] in commands, (got[0], commands)
    return got[0]
