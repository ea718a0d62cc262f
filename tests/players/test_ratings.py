"""Elo ratings: the pairwise rule, updates after rated games, unrated cases, leaderboards."""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from community import services as community_services
from games import services, store
from games.models import Game
from players import ratings
from players.models import Rating, RatingChange
from tests.games.helpers import humans_table, make_moderator, play_out, table_with_bots

pytestmark = pytest.mark.django_db(transaction=True)


def pairwise(mine: float, others: list[tuple[float, float]], n: int) -> float:
    """The documented rule, written out: K/(N-1) * sum(score - expected)."""
    return (
        32
        / (n - 1)
        * sum(score - 1 / (1 + 10 ** ((theirs - mine) / 400)) for theirs, score in others)
    )


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


# ---- rated games ------------------------------------------------------------------------
def test_a_four_player_game_updates_four_ratings_by_the_pairwise_rule(make_user):
    users = [make_user(n) for n in ("ana", "bob", "cy", "dee")]
    start = {"ana": 1500.0, "bob": 1620.0, "cy": 1410.0, "dee": 1555.0}
    for user in users:
        Rating.objects.create(user=user, ruleset="kingdoms", value=start[user.username])
    game = play_out(humans_table(users), users)
    assert game.status == Game.Status.FINISHED
    name_at = {s.number: s.user.username for s in game.seats.select_related("user")}
    ranking = [[name_at[seat] for seat in group] for group in game.outcome["ranking"]]
    place = {name: i for i, group in enumerate(ranking) for name in group}
    for user in users:
        me = user.username
        others = [
            (start[o], 1.0 if place[me] < place[o] else 0.0 if place[me] > place[o] else 0.5)
            for o in start
            if o != me
        ]
        rating = Rating.objects.get(user=user, ruleset="kingdoms")
        assert rating.value == pytest.approx(start[me] + pairwise(start[me], others, 4))
        assert rating.games == 1
        change = RatingChange.objects.get(game=game, user=user)
        assert change.before == start[me] and change.place == place[me] + 1
    assert RatingChange.objects.filter(game=game).count() == 4


def test_recording_a_result_twice_counts_once(make_user):
    users = [make_user("ana"), make_user("bob")]
    game = play_out(humans_table(users), users)
    assert RatingChange.objects.filter(game=game).count() == 2
    assert ratings.record_result(game, store.replay(game)) == []
    assert Rating.objects.get(user=users[0]).games == 1


def test_a_resignation_that_ends_a_two_player_game_is_rated(make_user):
    ana, bob = make_user("ana"), make_user("bob")
    game = humans_table([ana, bob])
    services.game_resign(game_id=game.id, user=ana)
    assert Rating.objects.get(user=ana).value == pytest.approx(1484)
    assert Rating.objects.get(user=bob).value == pytest.approx(1516)


# ---- unrated games ------------------------------------------------------------------
def test_a_game_with_a_bot_is_unrated(make_user):
    user = make_user()
    game = table_with_bots(user, bots=1)
    services.game_start(game_id=game.id, user=user)
    game = play_out(Game.objects.get(pk=game.id), [user])
    assert game.status == Game.Status.FINISHED
    assert not RatingChange.objects.exists() and not Rating.objects.exists()
    assert ratings.unrated_reason(game, store.replay(game)) == "a bot played"


def test_a_resignation_taken_over_by_a_bot_makes_the_game_unrated(make_user):
    users = [make_user("ana"), make_user("bob"), make_user("cy")]
    game = humans_table(users)
    services.game_resign(game_id=game.id, user=users[0])
    game = play_out(game, users[1:])
    assert game.status == Game.Status.FINISHED
    assert not RatingChange.objects.filter(game=game).exists()
    assert ratings.unrated_reason(game, store.replay(game)) == "a bot took over a seat"


def test_a_game_with_a_kicked_player_is_unrated(make_user):
    users = [make_user("ana"), make_user("bob"), make_user("cy")]
    mod = make_moderator(make_user("mod"))
    game = humans_table(users)
    services.kick_player(game_id=game.id, moderator=mod, player=users[2], reason="abuse")
    game = play_out(game, users[:2])
    assert game.status == Game.Status.FINISHED
    assert not RatingChange.objects.filter(game=game).exists()


def test_an_aborted_game_is_unrated(make_user):
    users = [make_user("ana"), make_user("bob")]
    game = humans_table(users)
    services.game_abort(
        game_id=game.id, staff_user=make_moderator(make_user("mod")), reason="server fault"
    )
    assert not RatingChange.objects.exists()


# ---- reading ratings ------------------------------------------------------------------
@pytest.fixture
def rated(make_user):
    """One rated two-player game with a winner: played for a while, then ana resigns
    (played to its end, the first-legal-command game can tie, which moves nobody)."""
    users = [make_user("ana"), make_user("bob")]
    game = play_out(humans_table(users), users, moves=6)
    services.game_resign(game_id=game.id, user=users[0])
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED
    winner = game.seats.get(number=game.outcome["ranking"][0][0]).user
    assert winner == users[1]
    return users, winner


def test_leaderboard_api_and_page_rank_by_rating(rated, client):
    users, winner = rated
    body = APIClient().get("/api/leaderboards/kingdoms/").json()
    assert body["start_rating"] == 1500 and body["k_factor"] == 32
    assert [p["username"] for p in body["players"]][0] == winner.username
    assert body["players"][0] == {
        **body["players"][0],
        "rank": 1,
        "rating": 1516,
        "games": 1,
    }
    page = client.get("/leaderboard/kingdoms/")
    assert page.status_code == 200 and winner.username in page.content.decode()
    assert client.get("/leaderboard/").status_code == 200
    assert client.get("/leaderboard/chess/").status_code == 404
    missing = APIClient().get("/api/leaderboards/chess/")
    assert missing.status_code == 404 and missing.json()["code"] == "unknown_ruleset"


def test_ratings_for_a_player_feed_the_profile(rated):
    users, winner = rated
    (mine,) = ratings.ratings_for(winner)
    assert mine == {
        "ruleset": "kingdoms",
        "ruleset_name": mine["ruleset_name"],
        "rating": 1516,
        "games": 1,
        "rank": 1,
        "last_change": 16.0,
    }
    body = APIClient().get(f"/api/players/{winner.username}/ratings/").json()
    assert body["ratings"] == [mine]
    assert APIClient().get("/api/players/nobody/ratings/").status_code == 404


def test_banned_players_leave_the_leaderboard(rated, make_user):
    users, winner = rated
    mod = make_moderator(make_user("mod"))
    community_services.ban_account(player=winner, moderator=mod, reason="cheating")
    names = [p["username"] for p in ratings.leaderboard("kingdoms")]
    assert winner.username not in names


def test_table_detail_shows_the_rating_changes_and_seat_ratings(rated):
    users, winner = rated
    game = Game.objects.get()
    detail = APIClient().get(f"/api/tables/{game.id}/").json()
    assert {c["username"]: c["delta"] for c in detail["rating_changes"]}[winner.username] == 16
    assert {s["user"]: s["rating"] for s in detail["seats"]}[winner.username] == 1516
