"""The Kingdoms bots: the greedy ``medium`` strategy."""

from __future__ import annotations

import random
import time

from bots.search import kingdoms as search
from bots.search.kingdoms_epoch import Epoch
from bots.strategies import get_strategy, random_legal
from bots.strategies.kingdoms import greedy
from games.rules.kingdoms import KINGDOMS as R
from tests.rules.kingdoms.helpers import new_game, put

OPTION_MIXES = [
    {},
    {"no_luck": True},
    {"last_castle": True},
    {"score_as_you_go": True},
    {"wizard": False},
    {"no_luck": True, "score_as_you_go": True, "last_castle": True},
]


def play(seed: int, players: int, strategies: list, options: dict | None = None):
    rng = random.Random(seed)
    state = R.fold(R.setup(options or {}, players, rng))
    while R.outcome(state) is None:
        (seat,) = R.to_act(state)
        command = strategies[seat](R, state, seat, rng)
        state = R.fold(R.decide(state, seat, command, rng), state)
    return R.outcome(state)


def test_greedy_is_registered_as_medium_for_kingdoms():
    assert get_strategy("kingdoms", "medium") is greedy
    assert get_strategy("kingdoms", "hard") is not greedy  # the search bot (bots/search)
    assert get_strategy("kingdoms", "easy") is random_legal


def test_greedy_always_returns_a_legal_command():
    for seed in range(18):
        rng = random.Random(seed)
        options = OPTION_MIXES[seed % len(OPTION_MIXES)]
        players = 2 + seed % 3
        state = R.fold(R.setup(options, players, rng))
        while R.outcome(state) is None:
            (seat,) = R.to_act(state)
            if rng.random() < 0.5:
                command = greedy(R, state, seat, rng)
                assert command in R.legal_commands(state, seat)
            else:
                command = random_legal(R, state, seat, rng)
            state = R.fold(R.decide(state, seat, command, rng), state)


def test_greedy_beats_random_in_most_two_player_games():
    wins = 0
    for seed in range(20):
        seats = [greedy, random_legal] if seed % 2 == 0 else [random_legal, greedy]
        outcome = play(seed, 2, seats)
        wins += seats.index(greedy) in outcome.winners
    assert wins >= 15


def test_greedy_beats_random_in_four_player_games_and_variants():
    wins = 0
    for seed in range(12):
        seats = [random_legal] * 4
        seats[seed % 4] = greedy
        wins += seed % 4 in play(seed, 4, seats, OPTION_MIXES[seed % len(OPTION_MIXES)]).winners
    assert wins >= 8


def test_greedy_decides_only_from_what_its_seat_sees():
    for seed in range(10):
        rng = random.Random(seed)
        state = R.fold(R.setup({}, 3, rng))
        for _ in range(rng.randrange(40)):
            (seat,) = R.to_act(state)
            state = R.fold(R.decide(state, seat, random_legal(R, state, seat, rng), rng), state)
            if R.outcome(state):
                break
        if R.outcome(state):
            continue
        (seat,) = R.to_act(state)
        other_world = R.determinize(state, seat, random.Random(seed))
        assert greedy(R, state, seat, random.Random(1)) == greedy(
            R, other_world, seat, random.Random(1)
        )


def test_greedy_is_fast():
    rng = random.Random(3)
    state = R.fold(R.setup({"no_luck": True}, 4, rng))
    started = time.perf_counter()
    decisions = 0
    while R.outcome(state) is None:
        (seat,) = R.to_act(state)
        state = R.fold(R.decide(state, seat, greedy(R, state, seat, rng), rng), state)
        decisions += 1
    assert (time.perf_counter() - started) / decisions < 0.02


def _epoch_three(**cells):
    state, _ = new_game(2, seed=0)
    state.epoch, state.epoch_gains = 3, [[0, 0]] * 3
    put(state, cells["cells"])
    state.turn = 0
    return state


def test_greedy_puts_a_drawn_hazard_in_the_opponents_line_not_its_own():
    state = _epoch_three(
        cells={(0, 0): "castle:1:4", (0, 1): "+5a", (4, 0): "castle:0:3", (4, 1): "+5b"}
    )
    state.drawn = "-6"
    state.supply.remove("-6")
    command = greedy(R, state, 0, random.Random(0))
    assert command["type"] == "place_tile" and command["space"][0] == 0


def test_greedy_puts_a_drawn_resource_in_its_own_line():
    state = _epoch_three(
        cells={(0, 0): "castle:1:4", (0, 1): "+5a", (4, 0): "castle:0:3", (4, 1): "+5b"}
    )
    state.drawn = "+6a"
    state.supply.remove("+6a")
    command = greedy(R, state, 0, random.Random(0))
    assert command["type"] == "place_tile" and command["space"][0] == 4


def test_greedy_puts_its_highest_castle_beside_rich_resources_in_the_last_epoch():
    state = _epoch_three(cells={(2, 0): "+6a", (2, 1): "+6b", (2, 2): "+5a", (2, 3): "+5b"})
    command = greedy(R, state, 0, random.Random(0))
    assert command["type"] == "place_castle" and command["rank"] == 4
    assert command["space"][0] == 2


def test_greedy_passes_when_that_is_all_it_can_do():
    state, _ = new_game(2, seed=0)
    seat = state.turn
    state.castles[seat] = [0, 0, 0, 0]
    state.starting[seat] = None
    state.supply = []
    assert greedy(R, state, seat, random.Random(0)) == {"type": "pass"}


def test_the_experts_playouts_look_five_turns_ahead_and_value_castles_held_where_hards_do_not():
    ruleset = R
    rng = random.Random(3)
    world = ruleset.fold(ruleset.setup({}, 2, rng))
    seat = world.turn
    # Five turns on an empty board: as many pieces as turns (a turn's draw is placed in it).
    for turns in (3, 5):
        epoch = Epoch(ruleset.copy_state(world))
        assert epoch.play_out(random.Random(1), 2, turns) is False
        assert sum(piece is not None for piece in epoch.pieces) == turns
    expert_value = search.EXPERT_KNOWLEDGE.playout(ruleset, world, seat, 2, random.Random(7))
    assert expert_value == search.playout(
        ruleset,
        world,
        seat,
        2,
        random.Random(7),
        turns=5,
        castle_in_hand=search.EXPERT_CASTLE_IN_HAND,
    )
    assert search.KNOWLEDGE.playout(ruleset, world, seat, 2, random.Random(7)) == (
        search.playout(ruleset, world, seat, 2, random.Random(7), turns=3)
    )
