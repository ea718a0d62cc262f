"""Quick match (games/services/matchmaking.py, /api/quick-match/): the next people who ask
for the same game and seats sit down together at one started table; after the wait a
player chose, bots fill the empty seats; bad requests are JSON 4xx and change nothing; the
lobby's counts follow."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone
from rest_framework.test import APIClient

from games import services
from games.models import Game, MatchRequest
from players.models import BotAccount

pytestmark = pytest.mark.django_db


def api(user) -> APIClient:
    client = APIClient()
    client.force_authenticate(user)
    return client


def humans(game: Game) -> set[int]:
    return {s.user_id for s in game.seats.all() if s.user_id is not None}


def test_the_next_two_who_ask_sit_down_together_at_a_started_table(make_user):
    ana, bob = make_user("ana"), make_user("bob")
    first = services.quick_match_join(user=ana, ruleset="kingdoms", seats=2, bots_after=None)
    assert first["status"] == "waiting" and first["waiting"] == 1
    second = services.quick_match_join(user=bob, ruleset="kingdoms", seats=2, bots_after=60)
    assert second["status"] == "matched"
    game = Game.objects.get(id=second["table"])
    assert game.status == Game.Status.ACTIVE and game.ruleset == "kingdoms"
    assert humans(game) == {ana.pk, bob.pk} and game.seats.count() == 2
    # The first player learns it on their next look (and from the lobby socket).
    assert services.quick_match_state(user=ana) == {"status": "matched", "table": str(game.id)}


def test_different_games_or_seat_counts_do_not_meet(make_user):
    ana, bob, cy = make_user("ana"), make_user("bob"), make_user("cy")
    services.quick_match_join(user=ana, ruleset="kingdoms", seats=2)
    services.quick_match_join(user=bob, ruleset="kingdoms", seats=3)
    assert services.quick_match_join(user=cy, ruleset="kingdom-builder", seats=2)["status"] == (
        "waiting"
    )
    assert Game.objects.count() == 0


def test_after_the_wait_bots_fill_the_empty_seats(make_user):
    ana = make_user("ana")
    services.quick_match_join(user=ana, ruleset="kingdom-builder", seats=3, bots_after=30)
    assert services.quick_matches_settle(now=timezone.now() + timedelta(seconds=29)) == 0
    assert services.quick_matches_settle(now=timezone.now() + timedelta(seconds=31)) == 1
    game = Game.objects.get()
    assert game.status == Game.Status.ACTIVE and humans(game) == {ana.pk}
    assert sorted(s.bot_level for s in game.seats.all() if s.user_id is None) == [
        "medium",
        "medium",
    ]
    assert services.quick_match_state(user=ana)["status"] == "matched"


def test_a_wait_that_is_over_seats_whoever_waits_with_bots_for_the_rest(make_user):
    ana, bob = make_user("ana"), make_user("bob")
    services.quick_match_join(user=ana, ruleset="kingdoms", seats=3, bots_after=30)
    services.quick_match_join(user=bob, ruleset="kingdoms", seats=3, bots_after=None)
    MatchRequest.objects.filter(user=ana).update(created_at=timezone.now() - timedelta(seconds=40))
    # The player's own look settles it, without the sweep.
    state = services.quick_match_state(user=ana)
    assert state["status"] == "matched"
    game = Game.objects.get(id=state["table"])
    assert humans(game) == {ana.pk, bob.pk} and game.seats.count() == 3


def test_never_means_no_bots_and_a_lonely_request_is_dropped_in_time(make_user):
    ana = make_user("ana")
    services.quick_match_join(user=ana, ruleset="kingdoms", seats=2, bots_after=None)
    assert services.quick_matches_settle(now=timezone.now() + timedelta(minutes=14)) == 0
    assert services.quick_match_state(user=ana)["status"] == "waiting"
    services.quick_matches_settle(now=timezone.now() + timedelta(minutes=16))
    assert services.quick_match_state(user=ana) == {"status": "idle"}
    assert Game.objects.count() == 0


def test_asking_again_replaces_the_request_and_leaving_drops_it(make_user):
    ana = make_user("ana")
    services.quick_match_join(user=ana, ruleset="kingdoms", seats=2)
    services.quick_match_join(user=ana, ruleset="kingdoms", seats=3)
    assert MatchRequest.objects.filter(user=ana).count() == 1
    assert services.quick_match_state(user=ana)["seats"] == 3
    services.quick_match_leave(user=ana)
    assert services.quick_match_state(user=ana) == {"status": "idle"}


def test_the_api_answers_and_refuses_in_json(make_user):
    ana, bob = make_user("ana"), make_user("bob")
    client = api(ana)
    answer = client.post(
        "/api/quick-match/", {"ruleset": "kingdoms", "seats": 2, "bots_after": 60}, format="json"
    )
    assert answer.status_code == 200 and answer.json()["status"] == "waiting"
    for body, code in (
        ({"ruleset": "chess", "seats": 2}, "unknown_ruleset"),
        ({"ruleset": "kingdoms", "seats": 9}, "invalid"),
        ({"ruleset": "kingdoms", "seats": 5}, "bad_seats"),
        ({"ruleset": "kingdoms", "seats": 2, "bots_after": 7}, "bad_wait"),
        ({"ruleset": "kingdoms", "seats": "2"}, "invalid"),
    ):
        refused = client.post("/api/quick-match/", body, format="json")
        assert refused.status_code == 400, (body, refused.json())
        assert set(refused.json()) >= {"code", "message"}
        if code != "invalid":
            assert refused.json()["code"] == code
    assert client.get("/api/quick-match/").json()["bots_after"] == 60  # unchanged
    matched = api(bob).post("/api/quick-match/", {"ruleset": "kingdoms", "seats": 2}, format="json")
    assert matched.json()["status"] == "matched"
    assert client.get("/api/quick-match/").json()["table"] == matched.json()["table"]
    assert client.delete("/api/quick-match/").status_code == 204
    assert APIClient().get("/api/quick-match/").status_code in (401, 403)


def test_a_bot_account_is_refused(make_user):
    robo = make_user("robo")
    BotAccount.objects.create(user=robo)
    refused = api(robo).post(
        "/api/quick-match/", {"ruleset": "kingdoms", "seats": 2}, format="json"
    )
    assert refused.status_code == 403 and refused.json()["code"] == "bot_account"
    assert not MatchRequest.objects.exists()


def test_the_lobby_counts_players_at_tables_and_looking(make_user, client):
    ana, bob, cy = make_user("ana"), make_user("bob"), make_user("cy")
    services.quick_match_join(user=ana, ruleset="kingdoms", seats=2)
    services.quick_match_join(user=bob, ruleset="kingdoms", seats=2)  # a table, started
    services.quick_match_join(user=cy, ruleset="kingdom-builder", seats=3)
    counts = client.get("/api/lobby/counts/").json()
    assert counts["games"]["kingdoms"] == {"playing": 2, "looking": 0}
    assert counts["games"]["kingdom-builder"] == {"playing": 0, "looking": 1}
    assert counts["in_lobby"] == 0 and counts["waits"] == [30, 60, 120]
    client.force_login(cy)
    assert client.get("/api/lobby/counts/").json()["in_lobby"] == 1
