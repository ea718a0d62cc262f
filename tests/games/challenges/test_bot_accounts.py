"""Bot accounts: an account that never played becomes one for good; it is marked as a
bot wherever its name is shown, ranked with the bots, kept out of the human lobby, and
plays the games it is challenged to."""

from __future__ import annotations

import pytest

from games.models import Game
from players.models import BotAccount, Rating
from tests.games.helpers import json_refusal


@pytest.fixture
def robo(api):
    client = api("robo")
    assert client.post("/api/bot/account/upgrade/").json() == {"username": "robo", "bot": True}
    return client


def test_an_account_becomes_a_bot_once_and_for_good(robo):
    again = robo.post("/api/bot/account/upgrade/")
    assert again.status_code == 409 and json_refusal(again)["code"] == "already_bot"
    assert BotAccount.objects.filter(user__username="robo").count() == 1


def test_an_account_that_has_played_cannot_become_a_bot(api):
    ana = api("ana")
    ana.post("/api/tables/", {"ruleset": "kingdoms", "seats": 2}, format="json")
    refused = ana.post("/api/bot/account/upgrade/")
    assert refused.status_code == 409 and json_refusal(refused)["code"] == "has_played"
    assert not BotAccount.objects.exists()


def test_a_bot_account_opens_no_table_in_the_human_lobby_and_joins_none(robo, api):
    before = Game.objects.count()
    refused = robo.post("/api/tables/", {"ruleset": "kingdoms", "seats": 2}, format="json")
    assert refused.status_code == 403 and json_refusal(refused)["code"] == "bot_account"
    assert Game.objects.count() == before
    table = api("ana").post("/api/tables/", {"ruleset": "kingdoms", "seats": 2}, format="json")
    joined = robo.post(f"/api/tables/{table.json()['id']}/join/")
    assert joined.status_code == 403 and json_refusal(joined)["code"] == "bot_account"


def test_a_bot_account_is_marked_as_a_bot_at_the_table_and_in_challenges(robo, api):
    ana = api("ana")
    challenge = ana.post("/api/challenge/robo/", {"ruleset": "kingdoms"}, format="json").json()
    assert challenge["dest_user"] == {"name": "robo", "bot": True}
    assert robo.post(f"/api/challenge/{challenge['id']}/accept/").status_code == 200
    seats = ana.get(f"/api/tables/{challenge['table']}/").json()["seats"]
    marked = {s["user"]: (s["name"], s["bot_account"]) for s in seats}
    assert marked == {"ana": ("ana", False), "robo": ("robo (bot)", True)}


def test_a_bot_may_challenge_a_person(robo, api):
    ana = api("ana")
    challenge = robo.post("/api/challenge/ana/", {"ruleset": "kingdoms"}, format="json")
    assert challenge.status_code == 201
    assert ana.post(f"/api/challenge/{challenge.json()['id']}/accept/").status_code == 200


def test_bots_have_a_leaderboard_of_their_own(robo, api):
    ana = api("ana")
    for user, value in ((ana.user, 1600.0), (robo.user, 1700.0)):
        Rating.objects.create(user=user, ruleset="kingdoms", value=value, games=3)
    people = ana.get("/api/leaderboards/kingdoms/").json()["players"]
    bots = ana.get("/api/leaderboards/kingdoms/?bots=1").json()["players"]
    assert [p["username"] for p in people] == ["ana"]
    assert [p["username"] for p in bots] == ["robo"]
    page = ana.get("/leaderboard/kingdoms/?bots=1")
    assert b"robo" in page.content and b"BOT" in page.content
    profile = ana.get("/players/robo/")
    assert b'data-testid="bot-badge"' in profile.content
