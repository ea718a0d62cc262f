"""Table chat over WebSocket: history, live lines, hides, reports, who may talk."""

from __future__ import annotations

import pytest
import redis
from asgiref.sync import async_to_sync, sync_to_async
from channels.routing import URLRouter
from channels.testing import WebsocketCommunicator
from django.contrib.auth.models import AnonymousUser
from rest_framework.test import APIClient

from community import selectors, services
from community.models import Report
from kingdom.routing import websocket_urlpatterns
from players import services as players_services
from tests.games.helpers import humans_game, make_moderator

pytestmark = pytest.mark.django_db(transaction=True)
app = URLRouter(websocket_urlpatterns)


def connect(game_id, user) -> WebsocketCommunicator:
    communicator = WebsocketCommunicator(app, f"/ws/games/{game_id}/chat/")
    communicator.scope["user"] = user
    return communicator


@pytest.fixture
def game_of_two(make_user):
    ana, bob = make_user("ana"), make_user("bob")
    return humans_game([ana, bob]), ana, bob


def test_history_then_live_lines_for_everyone_at_the_table(game_of_two):
    game, ana, bob = game_of_two
    services.chat_post(game_id=game.id, user=ana, body="good luck")

    async def scenario():
        speaker, watcher = connect(game.id, bob), connect(game.id, AnonymousUser())
        assert (await speaker.connect())[0] and (await watcher.connect())[0]
        for ws in (speaker, watcher):
            history = await ws.receive_json_from(timeout=5)
            assert history["type"] == "history"
            assert [m["body"] for m in history["messages"]] == ["good luck"]
        await speaker.send_json_to({"type": "say", "body": "  you too  "})
        for ws in (speaker, watcher):
            line = await ws.receive_json_from(timeout=5)
            assert line["type"] == "message"
            assert line["message"]["author"] == "bob" and line["message"]["body"] == "you too"
        await speaker.disconnect()
        await watcher.disconnect()

    async_to_sync(scenario)()


def test_a_bot_accounts_lines_are_marked_as_a_bots_wherever_they_are_read(
    game_of_two, make_user, django_assert_num_queries
):
    game, ana, _bob = game_of_two
    robo = make_user("robo")
    players_services.bot_upgrade(user=robo)
    services.chat_post(game_id=game.id, user=ana, body="hello")
    services.chat_post(game_id=game.id, user=robo, body="beep")
    client = APIClient()
    client.force_authenticate(robo)
    posted = client.post(f"/api/tables/{game.id}/chat/", {"body": "boop"}, format="json")
    assert posted.status_code == 201, posted.json()
    assert (posted.json()["author"], posted.json()["bot_account"]) == ("robo", True)
    marked = [("ana", False), ("robo", True), ("robo", True)]
    history = client.get(f"/api/tables/{game.id}/chat/").json()["messages"]
    assert [(m["author"], m["bot_account"]) for m in history] == marked
    with django_assert_num_queries(1):  # read with the authors, however many
        selectors.chat_history(game)

    async def scenario():
        ws = connect(game.id, ana)
        assert (await ws.connect())[0]
        opening = await ws.receive_json_from(timeout=5)
        assert [(m["author"], m["bot_account"]) for m in opening["messages"]] == marked
        await sync_to_async(services.chat_post)(game_id=game.id, user=robo, body="live")
        line = (await ws.receive_json_from(timeout=5))["message"]
        assert (line["author"], line["bot_account"], line["body"]) == ("robo", True, "live")
        await ws.disconnect()

    async_to_sync(scenario)()


def test_spectators_who_are_logged_in_may_talk_anonymous_may_not(game_of_two, make_user):
    game, _ana, _bob = game_of_two
    stranger = make_user("stranger")

    async def scenario():
        anonymous, watcher = connect(game.id, AnonymousUser()), connect(game.id, stranger)
        await anonymous.connect()
        await watcher.connect()
        await anonymous.receive_json_from(timeout=5)
        await watcher.receive_json_from(timeout=5)
        await anonymous.send_json_to({"type": "say", "body": "hello?"})
        refused = await anonymous.receive_json_from(timeout=5)
        assert refused == {**refused, "type": "error", "code": "not_authenticated"}
        await watcher.send_json_to({"type": "say", "body": "nice move"})
        assert (await watcher.receive_json_from(timeout=5))["message"]["body"] == "nice move"
        await anonymous.disconnect()
        await watcher.disconnect()

    async_to_sync(scenario)()


def test_a_hidden_line_is_withdrawn_live_and_a_report_reaches_the_queue(game_of_two, make_user):
    game, ana, bob = game_of_two
    mod = make_moderator(make_user("mod"))

    async def scenario():
        ws = connect(game.id, bob)
        await ws.connect()
        await ws.receive_json_from(timeout=5)
        line = await sync_to_async(services.chat_post)(game_id=game.id, user=ana, body="rude")
        posted = await ws.receive_json_from(timeout=5)
        assert posted["message"]["id"] == line.pk
        await ws.send_json_to({"type": "report", "message": line.pk, "reason": "rude"})
        reported = await ws.receive_json_from(timeout=5)
        assert reported["type"] == "reported"
        await sync_to_async(services.message_hide)(
            message_id=line.pk, moderator=mod, reason="insult"
        )
        hidden = await ws.receive_json_from(timeout=5)
        assert hidden == {"type": "hidden", "message": line.pk}
        await ws.disconnect()
        return reported["message"]

    reported = async_to_sync(scenario)()
    report = Report.objects.get()
    assert report.pk == reported
    assert report.reporter == bob and report.reason == "rude"


def test_a_banned_player_is_refused_at_once_on_an_open_socket(game_of_two, make_user):
    game, ana, _bob = game_of_two
    mod = make_moderator(make_user("mod"))

    async def scenario():
        ws = connect(game.id, ana)
        await ws.connect()
        await ws.receive_json_from(timeout=5)
        await sync_to_async(services.account_ban)(player=ana, moderator=mod, reason="spam")
        # The deactivated account's sockets close (players/receivers.py).
        assert await ws.receive_output(timeout=5) == {"type": "websocket.close", "code": 4401}

    async_to_sync(scenario)()


def test_a_muted_player_may_read_and_report_but_not_talk_until_the_mute_is_lifted(
    game_of_two, make_user
):
    game, ana, bob = game_of_two
    mod = make_moderator(make_user("mod"))
    line = services.chat_post(game_id=game.id, user=ana, body="rude")
    services.player_mute(player=bob, moderator=mod, reason="spam")

    async def scenario():
        ws = connect(game.id, bob)
        await ws.connect()
        history = await ws.receive_json_from(timeout=5)
        await ws.send_json_to({"type": "say", "body": "let me talk"})
        refused = await ws.receive_json_from(timeout=5)
        await ws.send_json_to({"type": "report", "message": line.pk, "reason": "rude"})
        reported = await ws.receive_json_from(timeout=5)
        await sync_to_async(services.player_unmute)(player=bob, moderator=mod, reason="ok")
        await ws.send_json_to({"type": "say", "body": "thanks"})
        said = await ws.receive_json_from(timeout=5)
        await ws.disconnect()
        return history, refused, reported, said

    history, refused, reported, said = async_to_sync(scenario)()
    assert [m["body"] for m in history["messages"]] == ["rude"]
    assert refused["type"] == "error" and refused["code"] == "muted"
    assert reported["type"] == "reported" and Report.objects.get().reporter == bob
    assert said["type"] == "message" and said["message"]["body"] == "thanks"
    assert [m.body for m in game.chat.order_by("id")] == ["rude", "thanks"]


def test_unknown_table_chat_is_refused(make_user):
    user = make_user()

    async def scenario():
        ws = connect("00000000-0000-0000-0000-000000000000", user)
        connected, _ = await ws.connect()
        return connected

    assert not async_to_sync(scenario)()


@pytest.mark.parametrize(
    ("failure", "status", "code"),
    [
        (redis.exceptions.ConnectionError("Redis is down"), 503, "unavailable"),
        (RuntimeError("a bug"), 500, "server_error"),
    ],
)
def test_a_failure_behind_a_line_is_answered_as_the_api_would_and_the_socket_stays(
    game_of_two, monkeypatch, failure, status, code
):
    """A store that is down (the rate limits' Redis, say) is a 503 frame, anything else a
    logged 500 frame with no code text; the socket stays open for the next line."""
    game, ana, _bob = game_of_two

    def failing_post(**kwargs):
        raise failure

    monkeypatch.setattr(services, "chat_post", failing_post)

    async def scenario():
        speaker = connect(game.id, ana)
        await speaker.connect()
        await speaker.receive_json_from(timeout=5)
        await speaker.send_json_to({"type": "say", "body": "hello"})
        refused = await speaker.receive_json_from(timeout=5)
        assert (refused["type"], refused["status"], refused["code"]) == ("error", status, code)
        assert "a bug" not in refused["message"]
        await speaker.send_json_to({"type": "ping"})
        assert (await speaker.receive_json_from(timeout=5))["type"] == "pong"
        await speaker.disconnect()

    async_to_sync(scenario)()
