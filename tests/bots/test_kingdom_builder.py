"""The Kingdom Builder bots."""

from __future__ import annotations

import random

from bots.strategies import get_strategy, random_legal
from games.rules import get_ruleset

RULESET = get_ruleset("kingdom-builder")
GREEDY = get_strategy("kingdom-builder", "medium")


def apply(s, seat, command, rng):
    for event in RULESET.decide(s, seat, command, rng):
        s = RULESET.evolve(s, event)
    return s


def test_greedy_is_registered_as_medium_and_easy_stays_random():
    assert GREEDY.__name__ == "greedy"
    assert get_strategy("kingdom-builder", "easy") is random_legal


def test_greedy_always_returns_a_legal_command():
    for seed, draw in enumerate(["standard", "draft", "hand", "choose", "sceadeau"] * 2):
        rng = random.Random(seed)
        players = 2 + seed % 3
        s = RULESET.fold(RULESET.setup({"terrain_draw": draw}, players, rng))
        while not s.finished:
            seat = s.active
            if rng.random() < 0.5:
                command = GREEDY(RULESET, s, seat, rng)
                assert command in RULESET.legal_commands(s, seat)
            else:
                command = random_legal(RULESET, s, seat, rng)
            s = apply(s, seat, command, rng)


def test_greedy_decides_only_from_what_its_seat_may_know():
    rng = random.Random(4)
    s = RULESET.fold(RULESET.setup({"terrain_draw": "hand"}, 3, rng))
    for _ in range(40):
        seat = s.active
        other_world = RULESET.determinize(s, seat, random.Random(rng.random()))
        mine = GREEDY(RULESET, s, seat, random.Random(9))
        assert GREEDY(RULESET, other_world, seat, random.Random(9)) == mine
        s = apply(s, seat, mine, rng)


def test_greedy_beats_random_in_most_two_player_games():
    wins = 0
    for game in range(20):
        rng = random.Random(1000 + game)
        s = RULESET.fold(RULESET.setup({}, 2, rng))
        greedy_seat = game % 2
        while not s.finished:
            seat = s.active
            bot = GREEDY if seat == greedy_seat else random_legal
            s = apply(s, seat, bot(RULESET, s, seat, rng), rng)
        wins += RULESET.outcome(s).ranking[0] == [greedy_seat]
    assert wins >= 15
