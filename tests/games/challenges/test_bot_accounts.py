"""Bot accounts: an account that never played becomes one for good; it is marked as a
bot wherever its name is shown, ranked with the bots, kept out of the human lobby, and
plays the games it is challenged to, through the API only (not logged in on the web, no
move from a browser session)."""

from __future__ import annotations

import pytest
from asgiref.sync import async_to_sync
from channels.routing import URLRouter
from channels.testing import WebsocketCommunicator
from django.contrib.auth import get_user_model
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from games import publishing, selectors
from games.models import Game, GameEvent
from kingdom.routing import websocket_urlpatterns
from players.models import BotAccount, Rating
from tests.games.helpers import json_refusal, to_act


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


# ---- a bot account plays through the API, not on the web ---------------------------------
def test_a_bot_account_cannot_log_in_on_the_web(robo, client):
    page = client.post("/accounts/login/", {"username": "robo", "password": "pw-123456789"})
    assert page.status_code == 200
    assert page.context["form"].bot_account_refused
    refused = page.content.decode()
    assert 'data-testid="bot-account-refused"' in refused
    assert "Bot accounts play through the API with their token" in refused
    assert "docs/bot-api.md" in refused and "didn&#x27;t match" not in refused
    assert "_auth_user_id" not in client.session
    # A person with the same kind of password logs in.
    person = get_user_model().objects.create_user(username="ana", password="pw-123456789")
    assert (
        client.post("/accounts/login/", {"username": "ana", "password": "pw-123456789"}).status_code
        == 302
    )
    assert client.session["_auth_user_id"] == str(person.pk)


@pytest.fixture
def robos_turn(robo, api):
    """A started Kingdoms game of ana and robo (ana's challenge, accepted) at robo's turn,
    and a legal command of robo's."""
    ana = api("ana")
    challenge = ana.post("/api/challenge/robo/", {"ruleset": "kingdoms"}, format="json").json()
    assert robo.post(f"/api/challenge/{challenge['id']}/accept/").status_code == 200
    game = Game.objects.get(pk=challenge["table"])
    robo_seat = game.seats.get(user=robo.user).number
    while robo_seat not in to_act(game):
        legal = ana.get(f"/api/tables/{game.id}/legal/").json()
        body = {"command": legal["commands"][0], "expected_seq": legal["seq"]}
        assert ana.post(f"/api/tables/{game.id}/commands/", body, format="json").status_code == 201
    game.refresh_from_db()
    return game, selectors.legal_commands(game, robo_seat)[0]


def _log_of(game: Game) -> list[tuple[int, str]]:
    return list(GameEvent.objects.filter(game=game).order_by("seq").values_list("seq", "type"))


def test_a_bot_accounts_move_by_post_needs_its_token(robos_turn, robo):
    game, command = robos_turn
    before = _log_of(game)
    browser = APIClient()
    browser.force_login(robo.user)  # a session from before the account became a bot
    body = {"command": command, "expected_seq": game.head_seq}
    for path in (f"/api/tables/{game.id}/commands/", f"/api/bot/game/{game.id}/move/"):
        refused = browser.post(path, body, format="json")
        assert refused.status_code == 403
        assert json_refusal(refused)["code"] == "bot_plays_through_the_api"
        assert "docs/bot-api.md" in json_refusal(refused)["message"]
    assert _log_of(game) == before
    program = APIClient()
    program.credentials(HTTP_AUTHORIZATION=f"Token {Token.objects.create(user=robo.user).key}")
    assert program.post(f"/api/bot/game/{game.id}/move/", body, format="json").status_code == 201


async def _socket_answer(game: Game, scope: dict, message: dict) -> dict:
    ws = WebsocketCommunicator(URLRouter(websocket_urlpatterns), f"/ws/games/{game.id}/")
    ws.scope.update(scope)
    connected, _ = await ws.connect()
    assert connected
    await ws.receive_json_from(timeout=5)  # the greeting frame
    await ws.send_json_to(message)
    while True:
        reply = await ws.receive_json_from(timeout=10)
        if reply["type"] in {"accepted", "error"} or "accepted" in reply:
            await ws.disconnect()
            return reply


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize(
    ("opened_with", "refused"),
    [
        ("a browser session", True),
        ("a ticket a browser session minted", True),
        ("a ticket its API token minted", False),
    ],
)
def test_a_bot_accounts_command_on_the_game_socket_needs_its_token(
    robos_turn, robo, opened_with, refused
):
    game, command = robos_turn
    before = _log_of(game)
    scope = {
        "a browser session": {"user": robo.user},
        "a ticket a browser session minted": {
            "user": robo.user,
            "ticketed": True,
            "session_group": publishing.session_group("a-session-key"),
        },
        "a ticket its API token minted": {"user": robo.user, "ticketed": True},
    }[opened_with]
    message = {"type": "command", "ref": "r1", "command": command, "expected_seq": game.head_seq}
    reply = async_to_sync(_socket_answer)(game, scope, message)
    if refused:
        assert reply["type"] == "error" and reply["ref"] == "r1" and reply["status"] == 403
        assert reply["code"] == "bot_plays_through_the_api"
        assert _log_of(game) == before
    else:
        assert "accepted" in reply or reply["type"] == "accepted", reply
        assert len(_log_of(game)) > len(before)
