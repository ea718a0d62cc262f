"""Elo ratings: the pairwise rule and the games that are unrated (players/ratings.py)."""

from __future__ import annotations

import pytest

from games import services, storage
from games.models import Game
from players import ratings
from players.models import Rating, RatingChange
from tests.games.helpers import game_with_bots, humans_game, make_moderator, play_out
from tests.players.helpers import pairwise

pytestmark = pytest.mark.django_db(transaction=True)


# ---- the rule ---------------------------------------------------------------------------
def test_four_players_pairwise_by_rank_with_a_tie_as_half():
    before = {"a": 1500.0, "b": 1600.0, "c": 1400.0, "d": 1550.0}
    deltas = ratings.elo_deltas(before, [["a"], ["b", "c"], ["d"]])
    assert deltas["a"] == pytest.approx(pairwise(1500, [(1600, 1), (1400, 1), (1550, 1)], 4))
    assert deltas["b"] == pytest.approx(pairwise(1600, [(1500, 0), (1400, 0.5), (1550, 1)], 4))
    assert deltas["c"] == pytest.approx(pairwise(1400, [(1500, 0), (1600, 0.5), (1550, 1)], 4))
    assert deltas["d"] == pytest.approx(pairwise(1550, [(1500, 0), (1600, 0), (1400, 0)], 4))
    assert sum(deltas.values()) == pytest.approx(0)


def test_two_equal_players_move_sixteen_points():
    deltas = ratings.elo_deltas({"a": 1500.0, "b": 1500.0}, [["a"], ["b"]])
    assert deltas == {"a": pytest.approx(16), "b": pytest.approx(-16)}


def test_a_draw_between_equals_changes_nothing():
    deltas = ratings.elo_deltas({"a": 1500.0, "b": 1500.0, "c": 1500.0}, [["a", "b", "c"]])
    assert all(d == pytest.approx(0) for d in deltas.values())


# ---- unrated games ------------------------------------------------------------------
def test_a_game_with_a_bot_is_unrated(make_user):
    user = make_user()
    game = game_with_bots(user, bots=1)
    services.game_start(game_id=game.id, user=user)
    game = play_out(Game.objects.get(pk=game.id), [user])
    assert game.status == Game.Status.FINISHED
    assert not RatingChange.objects.exists() and not Rating.objects.exists()
    assert ratings.unrated_reason(game, storage.replay(game)) == "a bot played"


def test_a_resignation_taken_over_by_a_bot_makes_the_game_unrated(make_user):
    users = [make_user("ana"), make_user("bob"), make_user("cy")]
    game = humans_game(users)
    services.game_resign(game_id=game.id, user=users[0])
    game = play_out(game, users[1:])
    assert game.status == Game.Status.FINISHED
    assert not RatingChange.objects.filter(game=game).exists()
    assert ratings.unrated_reason(game, storage.replay(game)) == "a bot took over a seat"


def test_a_game_with_a_kicked_player_is_unrated(make_user):
    users = [make_user("ana"), make_user("bob"), make_user("cy")]
    mod = make_moderator(make_user("mod"))
    game = humans_game(users)
    services.player_kick(game_id=game.id, moderator=mod, player=users[2], reason="abuse")
    game = play_out(game, users[:2])
    assert game.status == Game.Status.FINISHED
    assert not RatingChange.objects.filter(game=game).exists()


def test_an_aborted_game_is_unrated(make_user):
    users = [make_user("ana"), make_user("bob")]
    game = humans_game(users)
    services.game_abort(
        game_id=game.id, staff_user=make_moderator(make_user("mod")), reason="server fault"
    )
    assert not RatingChange.objects.exists()
