"""Challenges: a player invited to a seat, the table started when every invited seat has
accepted, and every refusal a clear JSON 4xx that changes nothing."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from community.models import Block, Mute
from games.models import Challenge, Game, GameEvent, Seat
from tests.games.helpers import json_refusal


def _challenge(client, username: str, **body):
    body.setdefault("ruleset", "kingdoms")
    return client.post(f"/api/challenge/{username}/", body, format="json")


def _world() -> tuple[int, int, int, int]:
    return (
        Challenge.objects.count(),
        Game.objects.count(),
        Seat.objects.count(),
        GameEvent.objects.count(),
    )


@pytest.fixture
def pair(api):
    return api("ana"), api("bob")


def test_an_accepted_challenge_starts_the_table_with_both_players(pair):
    ana, bob = pair
    made = _challenge(ana, "bob")
    assert made.status_code == 201, made.json()
    challenge = made.json()
    assert challenge["status"] == "created"
    assert challenge["challenger"] == {"name": "ana", "bot": False}
    assert challenge["dest_user"] == {"name": "bob", "bot": False}
    listed = bob.get("/api/challenge/").json()
    assert [c["id"] for c in listed["in"]] == [challenge["id"]] and listed["out"] == []
    assert [c["id"] for c in ana.get("/api/challenge/").json()["out"]] == [challenge["id"]]

    accepted = bob.post(f"/api/challenge/{challenge['id']}/accept/")
    assert accepted.status_code == 200 and accepted.json()["status"] == "accepted"
    game = Game.objects.get(pk=challenge["table"])
    assert game.status == Game.Status.ACTIVE and game.private
    assert {s.user.username for s in game.seats.all()} == {"ana", "bob"}
    assert bob.get("/api/challenge/").json() == {"in": [], "out": []}


def test_a_challenge_table_is_not_in_the_lobby_and_no_one_else_may_sit_there(pair, api):
    ana, _bob = pair
    table = _challenge(ana, "bob", seats=3).json()["table"]
    carol = api("carol")
    listed = carol.get("/api/tables/").json()["results"]
    assert table not in {t["id"] for t in listed}
    before = _world()
    refused = carol.post(f"/api/tables/{table}/join/")
    assert refused.status_code == 403 and json_refusal(refused)["code"] == "private_table"
    assert _world() == before
    assert table in {t["id"] for t in ana.get("/api/tables/?mine=1").json()["results"]}


def test_several_players_challenged_into_one_table_start_it_when_all_accepted(pair, api):
    ana, bob = pair
    carol = api("carol")
    first = _challenge(ana, "bob", ruleset="kingdom-cards", seats=3).json()
    second = _challenge(ana, "carol", ruleset="kingdom-cards", table=first["table"]).json()
    assert second["table"] == first["table"] and second["seats"] == 3
    assert bob.post(f"/api/challenge/{first['id']}/accept/").status_code == 200
    assert Game.objects.get(pk=first["table"]).status == Game.Status.OPEN
    assert carol.post(f"/api/challenge/{second['id']}/accept/").status_code == 200
    game = Game.objects.get(pk=first["table"])
    assert game.status == Game.Status.ACTIVE and game.seats.count() == 3


def test_a_host_may_fill_the_seats_nobody_was_invited_to_with_the_services_bots(pair):
    ana, bob = pair
    challenge = _challenge(ana, "bob", seats=3).json()
    assert ana.post(f"/api/tables/{challenge['table']}/bots/", {"level": "easy"}).status_code == 201
    # The seat promised to bob is kept: no second bot.
    refused = ana.post(f"/api/tables/{challenge['table']}/bots/", {"level": "easy"})
    assert refused.status_code == 409 and json_refusal(refused)["code"] == "table_full"
    bob.post(f"/api/challenge/{challenge['id']}/accept/")
    assert Game.objects.get(pk=challenge["table"]).status == Game.Status.ACTIVE


def test_declining_closes_the_table_it_was_made_for(pair):
    ana, bob = pair
    challenge = _challenge(ana, "bob").json()
    declined = bob.post(f"/api/challenge/{challenge['id']}/decline/", {"reason": "later"})
    assert declined.status_code == 200
    assert declined.json()["status"] == "declined" and declined.json()["decline_reason"] == "later"
    assert Game.objects.get(pk=challenge["table"]).status == Game.Status.ABORTED


def test_the_challenger_cancels_and_no_one_else_may(pair, api):
    ana, bob = pair
    challenge = _challenge(ana, "bob").json()
    before = _world()
    for client in (bob, api("carol")):
        refused = client.post(f"/api/challenge/{challenge['id']}/cancel/")
        assert refused.status_code == 403 and json_refusal(refused)["code"] == "not_yours"
    assert _world() == before
    assert ana.post(f"/api/challenge/{challenge['id']}/cancel/").json()["status"] == "canceled"
    assert Game.objects.get(pk=challenge["table"]).status == Game.Status.ABORTED


@pytest.mark.parametrize(
    ("username", "body", "status", "code"),
    [
        ("bob", {"ruleset": "chess"}, 400, "unknown_ruleset"),
        ("bob", {"ruleset": "kingdoms", "options": {"no_such": True}}, 400, None),
        ("bob", {"ruleset": "kingdoms", "seats": 9}, 400, None),
        ("bob", {}, 400, "invalid"),
        ("ana", {"ruleset": "kingdoms"}, 400, "self_challenge"),
        ("nobody", {"ruleset": "kingdoms"}, 404, "not_found"),
        (
            "bob",
            {"ruleset": "kingdoms", "time_control": {"kind": "blitz"}},
            400,
            "bad_time_control",
        ),
        ("bob", {"ruleset": "kingdoms", "time_control": "fast"}, 400, "bad_time_control"),
        (
            "bob",
            {"ruleset": "kingdoms", "time_control": {"kind": "realtime", "minutes": 0}},
            400,
            "bad_time_control",
        ),
        (
            "bob",
            {"ruleset": "kingdoms", "time_control": {"kind": "turn", "hours": 24, "days": 1}},
            400,
            "bad_time_control",
        ),
    ],
)
def test_a_bad_challenge_is_refused_and_changes_nothing(pair, username, body, status, code):
    ana, _bob = pair
    before = _world()
    refused = ana.post(f"/api/challenge/{username}/", body, format="json")
    assert refused.status_code == status, refused.json()
    found = json_refusal(refused)
    if code is not None:
        assert found["code"] == code
    assert _world() == before


def test_a_challenges_time_control_is_the_clock_of_the_table_it_starts(pair):
    ana, bob = pair
    control = {"kind": "realtime", "minutes": 5, "increment_seconds": 3}
    challenge = _challenge(ana, "bob", time_control=control).json()
    assert challenge["time_control"] == control
    assert [c["time_control"] for c in bob.get("/api/challenge/").json()["in"]] == [control]
    assert Game.objects.get(pk=challenge["table"]).time_control == control
    assert bob.post(f"/api/challenge/{challenge['id']}/accept/").status_code == 200
    table = bob.get(f"/api/tables/{challenge['table']}/").json()
    assert table["status"] == "active" and table["time_control"] == control
    # The started game is clocked by it.
    clock = table["view"]["clock"]
    assert clock is not None and clock["control"] == control, clock


def test_a_challenge_without_a_time_control_has_none(pair):
    ana, _bob = pair
    challenge = _challenge(ana, "bob").json()
    assert challenge["time_control"] == {"kind": "none"}
    assert Game.objects.get(pk=challenge["table"]).time_control == {"kind": "none"}


def test_accepting_someone_elses_challenge_or_twice_is_refused(pair, api):
    ana, bob = pair
    challenge = _challenge(ana, "bob", seats=3).json()
    before = _world()
    for client in (api("carol"), ana):
        refused = client.post(f"/api/challenge/{challenge['id']}/accept/")
        assert refused.status_code == 403 and json_refusal(refused)["code"] == "not_yours"
    assert _world() == before
    assert bob.post(f"/api/challenge/{challenge['id']}/accept/").status_code == 200
    before = _world()
    again = bob.post(f"/api/challenge/{challenge['id']}/accept/")
    assert again.status_code == 409 and json_refusal(again)["code"] == "challenge_answered"
    declined = bob.post(f"/api/challenge/{challenge['id']}/decline/")
    assert declined.status_code == 409
    assert _world() == before


def test_an_expired_challenge_cannot_be_accepted_and_its_table_closes(pair):
    ana, bob = pair
    challenge = _challenge(ana, "bob").json()
    Challenge.objects.filter(pk=challenge["id"]).update(
        expires_at=timezone.now() - timedelta(seconds=1)
    )
    refused = bob.post(f"/api/challenge/{challenge['id']}/accept/")
    assert refused.status_code == 409 and json_refusal(refused)["code"] == "challenge_expired"
    assert Challenge.objects.get(pk=challenge["id"]).status == Challenge.Status.EXPIRED
    assert Game.objects.get(pk=challenge["table"]).status == Game.Status.ABORTED
    assert not Seat.objects.filter(user__username="bob").exists()
    assert bob.get("/api/challenge/").json() == {"in": [], "out": []}


def test_a_challenge_expires_after_ten_minutes(pair):
    ana, _bob = pair
    challenge = _challenge(ana, "bob").json()
    row = Challenge.objects.get(pk=challenge["id"])
    assert row.expires_at - row.created_at == timedelta(minutes=10)


def test_an_account_has_only_a_few_challenges_open(pair, api, settings):
    settings.CHALLENGES_OPEN_PER_ACCOUNT = 2
    ana, _bob = pair
    api("carol")
    api("dan")
    assert _challenge(ana, "bob").status_code == 201
    assert _challenge(ana, "carol").status_code == 201
    before = _world()
    refused = _challenge(ana, "dan")
    assert refused.status_code == 429 and json_refusal(refused)["code"] == "too_many_challenges"
    assert _world() == before


def test_challenging_a_player_who_blocked_you_is_refused(pair):
    ana, bob = pair
    assert bob.post("/api/players/ana/block/").status_code == 200
    before = _world()
    refused = _challenge(ana, "bob")
    assert refused.status_code == 403 and json_refusal(refused)["code"] == "blocked"
    assert _world() == before
    assert bob.delete("/api/players/ana/block/").status_code == 204
    assert _challenge(ana, "bob").status_code == 201
    assert not Block.objects.exists()


def test_a_muted_player_cannot_challenge(pair):
    ana, _bob = pair
    Mute.objects.create(user=ana.user, reason="spam")
    before = _world()
    refused = _challenge(ana, "bob")
    assert refused.status_code == 403 and json_refusal(refused)["code"] == "muted"
    assert _world() == before


def test_challenging_into_another_players_table_is_refused(pair, api):
    ana, _bob = pair
    carol = api("carol")
    table = _challenge(ana, "bob", seats=3).json()["table"]
    before = _world()
    refused = _challenge(carol, "bob", table=table)
    assert refused.status_code == 403 and json_refusal(refused)["code"] == "not_your_table"
    twice = _challenge(ana, "bob", table=table)
    assert twice.status_code == 409 and json_refusal(twice)["code"] == "already_challenged"
    assert _world() == before
