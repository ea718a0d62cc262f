"""Every level of every game: registered, and never an illegal command."""

from __future__ import annotations

import random

import pytest

from bots.search.budget import thinking_budget
from bots.strategies import LEVELS, get_strategy, random_legal
from games.rules import get_ruleset

# Table options per game, so that variants and expansions (and their commands) are met.
TABLES = {
    "kingdoms": [{}, {"no_luck": True}, {"last_castle": True, "score_as_you_go": True}],
    "kingdom-builder": [
        {},
        {"terrain_draw": "hand"},
        {"nomads": True},
        {"crossroads": True, "terrain_draw": "draft"},
    ],
    "kingdom-cards": [{"allow_two_players": True}, {"auto_complete": False}],
}
# A few decisions per level in each game (the search bots on a tiny budget).
DECISIONS_PER_GAME = 12


def positions(game: str, options: dict, players: int, seed: int, count: int):
    """``count`` positions of a game played at random, spread over the whole game."""
    ruleset = get_ruleset(game)
    rng = random.Random(seed)
    state = ruleset.fold(ruleset.setup(options, players, rng))
    visited = 0
    while ruleset.outcome(state) is None and visited < count:
        seats = sorted(ruleset.to_act(state))
        if rng.random() < 0.35:
            visited += 1
            yield state, seats
        seat = rng.choice(seats)
        command = random_legal(ruleset, state, seat, rng)
        state = ruleset.fold(ruleset.decide(state, seat, command, rng), state)


@pytest.mark.parametrize("game", sorted(TABLES))
def test_each_game_has_four_distinct_levels(game):
    easy, medium, hard, expert = (get_strategy(game, level) for level in LEVELS)
    assert easy is random_legal
    assert len({easy, medium, hard, expert}) == 4
    assert hard.__name__ == "hard" and medium.__name__ == "greedy"
    assert expert.__name__ == "expert_level"


@pytest.mark.parametrize("level", LEVELS)
@pytest.mark.parametrize("game", sorted(TABLES))
def test_a_bot_never_submits_an_illegal_command(game, level):
    ruleset = get_ruleset(game)
    strategy = get_strategy(game, level)
    checked = 0
    with thinking_budget(seconds=None, playouts=12):
        for n, options in enumerate(TABLES[game]):
            players = 2 + n % 2
            for state, seats in positions(game, options, players, seed=n, count=8):
                for seat in seats:
                    rng = random.Random(checked)
                    command = strategy(ruleset, state, seat, rng)
                    assert command in ruleset.legal_commands(state, seat), (options, command)
                    # and the engine accepts it
                    ruleset.decide(state, seat, command, rng)
                    checked += 1
    assert checked >= DECISIONS_PER_GAME
