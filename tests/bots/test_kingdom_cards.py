import random
import time

import pytest

from bots.strategies import get_strategy, random_legal
from bots.strategies.kingdom_cards import greedy
from games.rules.kingdom_cards import RULESET
from tests.rules.kingdom_cards.positions import play, table


def run_game(seed, players, strategies, auto_complete=True, check=None):
    """Play one game; ``strategies[seat]`` decides for each seat picked from ``to_act``."""
    rng = random.Random(seed)
    options = {"allow_two_players": players == 2, "auto_complete": auto_complete}
    state = RULESET.fold(RULESET.setup(options, players, rng))
    while not state.finished:
        seat = rng.choice(sorted(RULESET.to_act(state)))
        command = strategies[seat](RULESET, state, seat, rng)
        if check is not None:
            check(state, seat, command)
        RULESET.apply(state, seat, command, rng)
    return RULESET.outcome(state)


def test_greedy_is_the_medium_bot_for_kingdom_cards():
    assert get_strategy("kingdom-cards", "medium") is greedy
    assert get_strategy("kingdom-cards", "hard") is not greedy  # the search bot
    assert get_strategy("kingdom-cards", "easy") is random_legal


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_greedy_always_chooses_a_legal_command(players):
    def check(state, seat, command):
        assert command in RULESET.legal_commands(state, seat)

    for seed in range(6):
        strategies = [greedy if (seat + seed) % 2 else random_legal for seat in range(players)]
        run_game(seed, players, strategies, auto_complete=seed % 3 != 0, check=check)


def test_greedy_beats_random_in_most_two_player_games():
    wins = 0
    for seed in range(20):
        greedy_seat = seed % 2
        strategies = [greedy if s == greedy_seat else random_legal for s in range(2)]
        outcome = run_game(1000 + seed, 2, strategies)
        wins += outcome.winners == [greedy_seat]
    assert wins >= 15


def test_greedy_decides_only_from_what_its_seat_sees():
    def check(state, seat, command):
        for shuffle in range(2):
            hidden = RULESET.determinize(state, seat, random.Random(shuffle))
            assert greedy(RULESET, hidden, seat, random.Random(0)) == greedy(
                RULESET, state, seat, random.Random(0)
            )

    run_game(7, 3, [greedy, greedy, greedy], check=check)


def test_greedy_decides_in_a_few_milliseconds():
    decisions = []

    def timed(ruleset, state, seat, rng):
        start = time.perf_counter()
        command = greedy(ruleset, state, seat, rng)
        decisions.append(time.perf_counter() - start)
        return command

    run_game(3, 5, [timed] * 5)
    assert sum(decisions) / len(decisions) < 0.01
    assert max(decisions) < 0.1


def test_greedy_lays_a_group_of_its_flag_before_it_fights():
    state = table(hands={0: ["R1a", "Y2a", "B3a", "R4a", "Y5a", "Y9b"], 1: ["R7a"]})
    assert greedy(RULESET, state, 0, random.Random(0)) == {
        "type": "lay_group",
        "cards": ["R1a", "Y2a", "B3a"],
    }


def test_greedy_challenges_an_opponent_with_no_cards_first():
    state = table(hands={0: ["Y9b"], 1: ["R7a"], 2: []}, groups={1: []})
    assert greedy(RULESET, state, 0, random.Random(0)) == {"type": "challenge", "seat": 2}


def test_greedy_keeps_its_kingdom_when_nothing_improves_it():
    state = table(hands={0: ["Y9b"], 1: ["R7a"], 2: ["T1", "Y4c"]})
    assert greedy(RULESET, state, 2, random.Random(0)) == {"type": "keep_kingdom"}


def test_greedy_counters_with_the_cheapest_card_that_wins():
    # The target flag is RRB (R4, R7, R8, B9 held): Y1a and Y7a are spare; only Y7a wins.
    state = table(hands={0: ["B9a", "R7a", "Y7a", "Y1a", "R4a", "R8b"], 1: ["R6a", "R6b"]})
    play(state, (0, {"type": "challenge", "seat": 1}), (1, {"type": "bid", "card": "R6a"}))
    assert greedy(RULESET, state, 0, random.Random(0)) == {"type": "bid", "card": "Y7a"}


def test_greedy_gives_away_its_cheapest_spare_card_when_it_cannot_win():
    state = table(hands={0: ["B9a", "R7a", "Y7a", "Y1a", "R4a", "R8b"], 1: ["T1"]})
    play(state, (0, {"type": "challenge", "seat": 1}), (1, {"type": "bid", "card": "T1"}))
    assert greedy(RULESET, state, 0, random.Random(0)) == {"type": "bid", "card": "Y1a"}


def test_greedy_takes_a_card_back_to_bid_when_challenged_with_an_empty_hand():
    state = table(hands={0: ["Y9b"], 1: []}, groups={1: [["R1a", "R2a", "R3a"]]})
    play(state, (0, {"type": "challenge", "seat": 1}))
    command = greedy(RULESET, state, 1, random.Random(0))
    assert command["type"] == "return_card"
    play(state, (1, command))
    assert greedy(RULESET, state, 1, random.Random(0))["type"] == "bid"
