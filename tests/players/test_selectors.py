"""Players' reads: ratings, leaderboards, profiles, each in a fixed number of queries
(players/selectors.py)."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone
from rest_framework.test import APIClient

from community import services as community_services
from games.errors import NotFound
from games.models import Game
from players import selectors
from players.models import START_RATING, Rating, RatingChange
from tests.games.helpers import humans_game, make_moderator, play_out

pytestmark = pytest.mark.django_db


# ---- from a played game -----------------------------------------------------------------
@pytest.mark.django_db(transaction=True)
def test_ratings_for_a_player_feed_the_profile(rated):
    users, winner = rated
    (mine,) = selectors.ratings_for(winner)
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


@pytest.mark.django_db(transaction=True)
def test_banned_players_leave_the_leaderboard(rated, make_user):
    users, winner = rated
    mod = make_moderator(make_user("mod"))
    community_services.account_ban(player=winner, moderator=mod, reason="cheating")
    names = [p["username"] for p in selectors.leaderboard("kingdoms")]
    assert winner.username not in names


@pytest.mark.django_db(transaction=True)
def test_table_detail_shows_the_rating_changes_and_seat_ratings(rated):
    users, winner = rated
    game = Game.objects.get()
    detail = APIClient().get(f"/api/tables/{game.id}/").json()
    assert {c["username"]: c["delta"] for c in detail["rating_changes"]}[winner.username] == 16
    assert {s["user"]: s["rating"] for s in detail["seats"]}[winner.username] == 1516


# ---- ratings ----------------------------------------------------------------------------
def rate(user, ruleset: str = "kingdoms", value: float = START_RATING, games: int = 1) -> Rating:
    return Rating.objects.create(user=user, ruleset=ruleset, value=value, games=games)


def test_a_player_without_a_rating_is_at_the_start_rating(make_user):
    ana = make_user("ana")
    assert selectors.rating_of(ana, "kingdoms") == START_RATING
    rate(ana, value=1612.0)
    assert selectors.rating_of(ana, "kingdoms") == 1612.0


def test_ratings_for_ranks_among_active_rated_players_and_gives_the_last_change(make_user):
    ana, bob, cy, dee = (make_user(n) for n in ("ana", "bob", "cy", "dee"))
    rate(ana, value=1540.0)
    rate(bob, value=1600.0)
    rate(cy, value=1700.0)
    cy.is_active = False  # banned: not ranked above anyone
    cy.save()
    rate(dee, value=1800.0, games=0)  # no rated game yet: not ranked either
    rate(ana, ruleset="kingdom-builder", value=1480.0)
    game = humans_game([ana, bob])
    older = RatingChange.objects.create(
        game=game, user=ana, ruleset="kingdoms", place=2, before=1530.0, after=1520.0
    )
    RatingChange.objects.filter(pk=older.pk).update(created_at=timezone.now() - timedelta(days=1))
    RatingChange.objects.create(
        game=humans_game([ana, bob]),
        user=ana,
        ruleset="kingdoms",
        place=1,
        before=1520.0,
        after=1540.0,
    )
    mine = {r["ruleset"]: r for r in selectors.ratings_for(ana)}
    assert [r["ruleset"] for r in selectors.ratings_for(ana)] == ["kingdom-builder", "kingdoms"]
    assert mine["kingdoms"]["rank"] == 2 and mine["kingdoms"]["last_change"] == 20.0
    assert mine["kingdom-builder"] == {
        "ruleset": "kingdom-builder",
        "ruleset_name": selectors.ruleset_names()["kingdom-builder"],
        "rating": 1480,
        "games": 1,
        "rank": 1,
        "last_change": None,
    }


def test_ratings_for_takes_one_query_however_many_games(make_user, django_assert_num_queries):
    ana = make_user("ana")
    for key in selectors.ruleset_names():
        rate(ana, ruleset=key)
    with django_assert_num_queries(1):
        assert len(selectors.ratings_for(ana)) == len(selectors.ruleset_names())


def test_leaderboard_rows_take_one_query_with_the_names(make_user, django_assert_num_queries):
    for i in range(5):
        rate(make_user(f"p{i}"), value=1500.0 + i)
    with django_assert_num_queries(1):
        board = selectors.leaderboard("kingdoms", 3)
    assert [row["username"] for row in board] == ["p4", "p3", "p2"]
    assert [row["rank"] for row in board] == [1, 2, 3]


def test_leaderboards_take_one_query_per_game(make_user, django_assert_num_queries):
    rate(make_user("ana"))
    with django_assert_num_queries(len(selectors.ruleset_names())):
        boards = selectors.leaderboards(10)
    assert {b["key"]: len(b["players"]) for b in boards}["kingdoms"] == 1


def test_an_unknown_game_or_player_is_not_found():
    with pytest.raises(NotFound):
        selectors.ruleset_name("chess")
    with pytest.raises(NotFound):
        selectors.player_get("nobody")


# ---- profile ----------------------------------------------------------------------------
def test_profile_counts_finished_and_active_games(make_user, django_assert_num_queries):
    ana, bob = make_user("ana"), make_user("bob")
    humans_game([ana, bob])
    humans_game([ana, bob])
    # games, their seats, the seats' players, ratings, a bot account?
    with django_assert_num_queries(5):
        profile = selectors.player_profile(ana)
    assert profile["stats"] == {"played": 0, "won": 0, "active": 2}
    assert [row["players"] for row in profile["rows"]] == [2, 2]
    assert all(row["seat"].user_id == ana.pk for row in profile["rows"])


def test_games_against_the_sites_bots_are_listed_as_practice(make_user, client):
    ana, bob = make_user("ana"), make_user("bob")
    humans_game([ana, bob])
    humans_game([ana], bots=1)
    rows = selectors.player_profile(ana)["rows"]
    assert sorted(row["practice"] for row in rows) == [False, True]
    page = client.get("/players/ana/").content.decode()
    assert page.count("practice · unrated") == 1


def test_shared_place_skips_the_places_of_a_tie():
    assert [selectors.shared_place([[0, 2], [1]], seat) for seat in (0, 1, 2)] == [1, 3, 1]


def test_recent_opponents_come_newest_first_with_who_placed_ahead(make_user, client):
    ana, bob, carol = make_user("ana"), make_user("bob"), make_user("carol")
    finished = play_out(humans_game([ana, bob]), [ana, bob])
    humans_game([ana, carol], bots=1)  # the site's bot is no opponent to list
    opponents = selectors.player_profile(ana)["opponents"]
    assert [o["name"] for o in opponents] == ["carol", "bob"]
    seats = {s.user_id: s.number for s in finished.seats.all()}
    ranking = finished.outcome["ranking"]
    own = selectors.shared_place(ranking, seats[ana.pk])
    theirs = selectors.shared_place(ranking, seats[bob.pk])
    expected = (int(own < theirs), int(own > theirs))
    bob_row = opponents[1]
    assert (bob_row["games"], bob_row["ahead"], bob_row["behind"]) == (1, *expected)
    assert opponents[0] == {"name": "carol", "games": 1, "ahead": 0, "behind": 0}
    page = client.get("/players/ana/").content.decode()
    assert 'data-testid="recent-opponents"' in page
    assert page.index('href="/players/carol/"') < page.index('href="/players/bob/"')
