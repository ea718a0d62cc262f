"""The players JSON API: leaderboards (paged), ratings, sign-up (players/api.py).

Each list endpoint answers in a fixed number of queries, however long the list."""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from players.models import START_RATING, Rating

pytestmark = pytest.mark.django_db


@pytest.mark.django_db(transaction=True)
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


def rate_many(make_user, n: int) -> None:
    for i in range(n):
        Rating.objects.create(
            user=make_user(f"p{i:02}"), ruleset="kingdoms", value=1500.0 + i, games=1
        )


def test_leaderboard_pages_with_limit_and_offset_and_keeps_its_keys(make_user):
    rate_many(make_user, 5)
    body = APIClient().get("/api/leaderboards/kingdoms/?limit=2&offset=2").json()
    assert body["start_rating"] == START_RATING and body["count"] == 5
    assert [(p["rank"], p["username"]) for p in body["players"]] == [(3, "p02"), (4, "p01")]
    assert "offset=4" in body["next"] and "offset" not in body["previous"]
    last = APIClient().get(body["next"]).json()
    assert [p["username"] for p in last["players"]] == ["p00"] and last["next"] is None


def test_leaderboard_limit_is_clamped_and_must_be_a_whole_number(make_user):
    rate_many(make_user, 3)
    assert len(APIClient().get("/api/leaderboards/kingdoms/?limit=0").json()["players"]) == 1
    assert len(APIClient().get("/api/leaderboards/kingdoms/?limit=").json()["players"]) == 3
    for bad in ("limit=ten", "offset=x"):
        answer = APIClient().get(f"/api/leaderboards/kingdoms/?{bad}")
        assert answer.status_code == 400 and answer.json()["code"] == "invalid"


def test_leaderboard_api_takes_two_queries_however_long(make_user, django_assert_num_queries):
    rate_many(make_user, 12)
    with django_assert_num_queries(2):  # the count, the page with the names
        body = APIClient().get("/api/leaderboards/kingdoms/").json()
    assert len(body["players"]) == 12


def test_player_ratings_api_takes_two_queries(make_user, django_assert_num_queries):
    ana = make_user("ana")
    for ruleset in ("kingdoms", "kingdom-builder", "kingdom-cards"):
        Rating.objects.create(user=ana, ruleset=ruleset, games=1)
    with django_assert_num_queries(2):  # the player, the ratings with rank and last change
        body = APIClient().get("/api/players/ana/ratings/").json()
    assert [r["ruleset"] for r in body["ratings"]] == [
        "kingdom-builder",
        "kingdom-cards",
        "kingdoms",
    ]


def test_signup_api_answers_the_name_and_a_working_token():
    answer = APIClient().post(
        "/api/auth/signup/", {"username": "cy", "password": "pw-1234567"}, format="json"
    )
    assert answer.status_code == 201 and set(answer.json()) == {"username", "token"}
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {answer.json()['token']}")
    assert client.post("/api/auth/ws-ticket/").status_code == 201
