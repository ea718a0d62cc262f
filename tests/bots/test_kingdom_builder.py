"""The Kingdom Builder bots."""

from __future__ import annotations

import random

from bots.strategies import get_strategy, random_legal
from games.rules import get_ruleset
from tests.rules.kingdom_builder.helpers import play, position

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


# ---- with the Nomads and Crossroads expansions ---------------------------------------------------
EXPANSIONS = {"nomads": True, "crossroads": True}
EXPANSION_COMMANDS = {
    "use_nomad_tile",
    "move_settlement",
    "remove_settlement",
    "place_wall",
    "finish_action",
    "take_back_piece",
}


def test_greedy_handles_every_expansion_command_and_stays_legal():
    offered: set[str] = set()
    tiles: set[str] = set()
    for seed, draw in enumerate(["standard", "draft", "hand", "choose", "sceadeau"] * 2):
        rng = random.Random(seed)
        players = 2 + seed % 4
        options = {**EXPANSIONS, "terrain_draw": draw, "crossroads_pieces_score": seed % 2 == 0}
        s = RULESET.fold(RULESET.setup(options, players, rng))
        while not s.finished:
            seat = s.active
            legal = RULESET.legal_commands(s, seat)
            if rng.random() < 0.6:
                command = GREEDY(RULESET, s, seat, rng)
                assert command in legal
                offered |= {c["type"] for c in legal}
                tiles |= {c["tile"] for c in legal if c["type"] == "use_tile"}
            else:
                command = random_legal(RULESET, s, seat, rng)
            s = apply(s, seat, command, rng)
    assert EXPANSION_COMMANDS - offered <= {"remove_settlement", "move_settlement"}
    assert {"quarry", "caravan", "village", "wagon", "lighthouse", "barracks"} & tiles


def test_greedy_chooses_the_sword_victims_settlement_from_public_facts():
    s = position(
        {0: [(5, 5)], 1: [(10, 9), (14, 14)]},
        locations={(10, 10): "farm"},
        held={1: [("farm", (10, 10))]},
        nomad_held={0: [("sword", (9, 9))]},
        nomads=True,
    )
    s, _ = play(s, {"type": "use_nomad_tile", "tile": "sword"})
    command = GREEDY(RULESET, s, 0, random.Random(1))
    assert command == {"type": "remove_settlement", "hex": [10, 9]}  # it holds the farm


def test_greedy_decides_only_from_what_its_seat_may_know_with_the_expansions():
    rng = random.Random(6)
    s = RULESET.fold(RULESET.setup({**EXPANSIONS, "terrain_draw": "hand"}, 4, rng))
    for _ in range(60):
        if s.finished:
            break
        seat = s.active
        other_world = RULESET.determinize(s, seat, random.Random(rng.random()))
        mine = GREEDY(RULESET, s, seat, random.Random(9))
        assert GREEDY(RULESET, other_world, seat, random.Random(9)) == mine
        s = apply(s, seat, mine, rng)


def test_greedy_beats_random_in_most_two_player_expansion_games():
    wins = 0
    for game in range(20):
        rng = random.Random(2000 + game)
        s = RULESET.fold(RULESET.setup(EXPANSIONS, 2, rng))
        greedy_seat = game % 2
        while not s.finished:
            seat = s.active
            bot = GREEDY if seat == greedy_seat else random_legal
            s = apply(s, seat, bot(RULESET, s, seat, rng), rng)
        wins += RULESET.outcome(s).ranking[0] == [greedy_seat]
    assert wins >= 15
