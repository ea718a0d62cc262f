"""Setup: castles per player count, gold, the secret shuffle, starting tiles, first player."""

from __future__ import annotations

import random

import pytest

from games.rules.base import IllegalCommand
from games.rules.kingdoms.tiles import tile_set
from tests.rules.kingdoms.helpers import R, new_game


@pytest.mark.parametrize(("players", "rank_one"), [(2, 4), (3, 3), (4, 2)])
def test_castles_per_player_count(players, rank_one):
    state, _ = new_game(players)
    assert state.castles == [[rank_one, 3, 2, 1]] * players


@pytest.mark.parametrize("players", [2, 3, 4])
def test_every_player_starts_with_50_gold(players):
    state, _ = new_game(players)
    assert state.gold == [50] * players


@pytest.mark.parametrize("players", [2, 3, 4])
def test_each_player_draws_one_secret_starting_tile_from_the_shuffled_supply(players):
    state, _ = new_game(players, seed=7)
    assert all(t is not None for t in state.starting)
    assert len(state.supply) == 23 - players
    assert sorted(state.supply + state.starting) == sorted(tile_set(True))


def test_supply_order_is_only_in_the_server_only_private_part():
    _, events = new_game(3, seed=2)
    started = events[1]
    assert started.type == "epoch_started"
    assert "supply" not in started.public
    assert started.public["supply_count"] == 20
    assert len(started.private[-1]["supply"]) == 20
    for seat in range(3):
        assert set(started.seen_by(seat)) == set(started.public) | {"starting_tile"}
        assert "supply" not in started.seen_by(seat)
    assert started.seen_by(None) == started.public


def test_starting_tiles_are_private_to_their_holder():
    _, events = new_game(4, seed=3)
    started = events[1]
    tiles = [started.private[seat]["starting_tile"] for seat in range(4)]
    for seat in range(4):
        assert started.seen_by(seat)["starting_tile"] == tiles[seat]


def test_shuffle_differs_between_seeds_and_repeats_with_the_same_seed():
    orders = {tuple(new_game(2, seed=s)[0].supply) for s in range(10)}
    assert len(orders) == 10
    assert new_game(2, seed=4)[0].supply == new_game(2, seed=4)[0].supply


def test_first_player_is_random_from_the_seed():
    firsts = {new_game(4, seed=s)[0].turn for s in range(40)}
    assert firsts == {0, 1, 2, 3}
    state, events = new_game(4, seed=5)
    assert state.turn == state.start_player == events[1].public["start_player"]
    assert events[1].public["start_reason"] == "random"


def test_game_begins_in_epoch_one_on_an_empty_board():
    state, _ = new_game(2)
    assert state.epoch == 1
    assert state.grid == [None] * 30
    assert R.view(state, 0)["phase"] == "play"


def test_first_setup_event_builds_the_state_from_nothing():
    _, events = new_game(3, seed=1, no_luck=True)
    state = R.evolve(None, events[0])
    assert state.players == 3 and state.options["no_luck"] is True


def test_options_default_to_the_standard_game_with_wizard():
    _, events = new_game(2)
    assert events[0].public["options"] == {
        "wizard": True,
        "last_castle": False,
        "no_luck": False,
        "score_as_you_go": False,
    }


@pytest.mark.parametrize("options", [{"variant": "no_luck"}, {"wizard": "yes"}, {"last_castle": 1}])
def test_unknown_or_mistyped_options_are_refused(options):
    with pytest.raises(IllegalCommand):
        R.setup(options, 2, random.Random(0))


@pytest.mark.parametrize("players", [1, 5])
def test_only_two_to_four_players(players):
    with pytest.raises(ValueError):
        R.setup({}, players, random.Random(0))


def test_ruleset_identity():
    assert (R.key, R.version, R.name, R.min_players, R.max_players) == (
        "kingdoms",
        "1.0",
        "Kingdoms",
        2,
        4,
    )
    assert {o.name for o in R.options} == {"wizard", "last_castle", "no_luck", "score_as_you_go"}
