"""The games API's lists: a fixed number of queries whatever their length, and every
table reachable a page at a time."""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from games import selectors, services
from games.models import Game
from players.models import Rating

pytestmark = pytest.mark.django_db


def open_games(make_user, count: int, prefix: str = "t", host=None) -> list[Game]:
    """``count`` Kingdoms tables, each with its host (``host`` or a new player), a second
    player (rated) and a bot."""
    games = []
    for n in range(count):
        guest = make_user(f"{prefix}guest{n}")
        host = host or make_user(f"{prefix}host{n}")
        Rating.objects.create(user=guest, ruleset="kingdoms", value=1500 + n, games=1)
        game = services.table_create(user=host, ruleset="kingdoms", seats=3)
        services.table_join(game_id=game.id, user=guest)
        services.bot_add(game_id=game.id, user=host, level="easy")
        games.append(game)
    return games


@pytest.mark.parametrize("count", [3, 30])
def test_the_table_list_reads_the_same_four_queries_for_3_or_30_tables(
    make_user, django_assert_num_queries, count
):
    open_games(make_user, count)
    # The tables with their hosts, their seats with their players, the players' ratings,
    # which of them are bot accounts.
    with django_assert_num_queries(4):
        page = APIClient().get("/api/tables/").json()
    assert len(page["results"]) == count
    seats = page["results"][0]["seats"]
    assert [s["bot"] for s in seats] == [None, None, "easy"]
    assert seats[1]["rating"] >= 1500


@pytest.mark.parametrize("count", [3, 30])
def test_my_tables_read_the_same_four_queries_for_3_or_30_tables(
    make_user, django_assert_num_queries, count
):
    ana = make_user("ana")
    open_games(make_user, count, host=ana)
    open_games(make_user, 2, prefix="others")
    client = APIClient()
    client.force_authenticate(ana)  # no query to know who asks
    with django_assert_num_queries(4):
        page = client.get("/api/tables/?mine=1&ruleset=kingdoms&status=open").json()
    assert len(page["results"]) == count


def test_page_two_of_the_table_list_goes_on_where_page_one_stopped(make_user):
    open_games(make_user, 5)
    client = APIClient()
    first = client.get("/api/tables/?limit=2").json()
    newest = [t["id"] for t in first["results"]]
    assert first["previous"] is None and first["next"]
    # A table made meanwhile tops the list; it does not push page 1's tables onto page 2.
    open_games(make_user, 1, prefix="late")
    second = client.get(first["next"]).json()
    third = client.get(second["next"]).json()
    seen = newest + [t["id"] for t in second["results"] + third["results"]]
    created = Game.objects.order_by("-created_at", "-id").values_list("id", flat=True)
    assert seen == [str(g) for g in created[1:]]
    assert third["next"] is None and third["previous"]


def test_more_than_200_tables_can_all_be_listed(make_user, django_assert_num_queries):
    host = make_user("host")
    for _ in range(205):
        services.table_create(user=host, ruleset="kingdoms", seats=2, join=False)
    client = APIClient()
    first = client.get("/api/tables/?limit=500").json()
    assert len(first["results"]) == 200  # a page holds at most 200
    with django_assert_num_queries(2):  # no seats, so no ratings to read
        rest = client.get(first["next"]).json()
    assert len(rest["results"]) == 5 and rest["next"] is None


@pytest.mark.parametrize(
    ("query", "rows"), [("limit=0", 1), ("limit=", 3), ("limit=2", 2), ("limit=999", 3)]
)
def test_a_limit_out_of_range_is_clamped(make_user, query, rows):
    open_games(make_user, 3)
    assert len(APIClient().get(f"/api/tables/?{query}").json()["results"]) == rows


@pytest.mark.parametrize("query", ["limit=many", "cursor=not-a-cursor", "cursor=%00"])
def test_a_bad_limit_or_cursor_is_a_json_400(query):
    response = APIClient().get(f"/api/tables/?{query}")
    assert response.status_code == 400
    assert set(response.json()) == {"code", "message"}


def test_the_rulesets_and_board_sections_read_nothing(django_assert_num_queries):
    client = APIClient()
    with django_assert_num_queries(0):
        assert client.get("/api/rulesets/").status_code == 200
        assert client.get("/api/rulesets/kingdom-builder/sections/").status_code == 200


def test_a_games_events_read_the_same_queries_for_one_or_all(make_user, django_assert_num_queries):
    ana, bob = make_user("ana"), make_user("bob")
    game = services.table_create(user=ana, ruleset="kingdoms", seats=2)
    services.table_join(game_id=game.id, user=bob)
    services.game_start(game_id=game.id, user=ana)
    for _ in range(12):  # whoever may move makes their first legal move
        game.refresh_from_db()
        for user in (ana, bob):
            seat = selectors.viewer_seat(game, user)
            if legal := selectors.legal_commands(game, seat):
                services.game_submit(game_id=game.id, user=user, command=legal[0])
                break
    game.refresh_from_db()
    assert game.head_seq > 12
    client = APIClient()
    url = f"/api/tables/{game.id}/events/"
    # The game, its events, its seats' names for the move log.
    for query in ("limit=1", f"after={game.head_seq - 1}", "limit=1000"):
        with django_assert_num_queries(3):
            assert client.get(f"{url}?{query}").status_code == 200
