"""The players pages read in a fixed number of queries, however long their lists
(players/pages.py; what they show is tested in tests/pages/test_pages.py)."""

from __future__ import annotations

import pytest

from players import selectors
from players.models import Rating
from tests.games.helpers import humans_game

pytestmark = pytest.mark.django_db


def rate_many(make_user, n: int) -> list:
    users = [make_user(f"p{i:02}") for i in range(n)]
    for i, user in enumerate(users):
        Rating.objects.create(user=user, ruleset="kingdoms", value=1500.0 + i, games=1)
    return users


def test_one_games_leaderboard_page_takes_one_query(client, make_user, django_assert_num_queries):
    rate_many(make_user, 12)
    with django_assert_num_queries(1):
        page = client.get("/leaderboard/kingdoms/")
    assert page.status_code == 200 and "p11" in page.content.decode()


def test_the_leaderboards_page_takes_one_query_per_game(
    client, make_user, django_assert_num_queries
):
    rate_many(make_user, 12)
    with django_assert_num_queries(len(selectors.ruleset_names())):
        assert client.get("/leaderboard/").status_code == 200


def test_the_profile_page_takes_four_queries(client, make_user, django_assert_num_queries):
    users = rate_many(make_user, 3)
    for _ in range(3):
        humans_game(users)
    # the player, their games, the games' seats, the seats' players, their ratings
    with django_assert_num_queries(5):
        page = client.get("/players/p00/")
    assert page.status_code == 200 and page.content.decode().count("/tables/") >= 3
