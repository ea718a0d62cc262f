"""Hostile WebSocket messages (game stream and table chat): an error message back, the
socket stays usable, and nothing reaches the database."""

from __future__ import annotations

import json

import pytest
from asgiref.sync import async_to_sync
from channels.routing import URLRouter
from channels.testing import WebsocketCommunicator

from community import services
from community.models import ChatMessage, Report
from games.errors import ServiceError
from kingdom.routing import websocket_urlpatterns
from tests.games.helpers import humans_game

pytestmark = pytest.mark.django_db(transaction=True)
app = URLRouter(websocket_urlpatterns)
HOSTILE = {
    "nul": json.dumps({"type": "say", "body": "hi\x00"}),
    "lone surrogate": json.dumps({"type": "say", "body": "hi\ud800"}),
    "deep": '{"type": "say", "body": ' + "[" * 5000 + "]" * 5000 + "}",
    "huge": json.dumps({"type": "say", "body": "x" * 200_000}),
    "not json": "{nope",
}


@pytest.fixture
def game_of_two(make_user):
    ana, bob = make_user("ana"), make_user("bob")
    return humans_game([ana, bob]), ana, bob


def socket(path: str, user) -> WebsocketCommunicator:
    communicator = WebsocketCommunicator(app, path)
    communicator.scope["user"] = user
    return communicator


@pytest.mark.parametrize("text", HOSTILE.values(), ids=HOSTILE.keys())
def test_hostile_chat_text_gets_an_error_and_the_socket_still_works(game_of_two, text):
    game, _ana, bob = game_of_two

    async def scenario():
        ws = socket(f"/ws/games/{game.id}/chat/", bob)
        assert (await ws.connect())[0]
        await ws.receive_json_from(timeout=5)  # history
        await ws.send_to(text_data=text)
        refused = await ws.receive_json_from(timeout=5)
        assert refused["type"] == "error" and refused["code"] and len(json.dumps(refused)) < 1000
        await ws.send_json_to({"type": "say", "body": "still here"})
        assert (await ws.receive_json_from(timeout=5))["message"]["body"] == "still here"
        await ws.disconnect()

    async_to_sync(scenario)()
    assert list(ChatMessage.objects.values_list("body", flat=True)) == ["still here"]


@pytest.mark.parametrize("text", HOSTILE.values(), ids=HOSTILE.keys())
def test_hostile_text_on_the_game_stream_gets_an_error_and_the_socket_still_works(
    game_of_two, text
):
    game, ana, _bob = game_of_two

    async def scenario():
        ws = socket(f"/ws/games/{game.id}/", ana)
        assert (await ws.connect())[0]
        await ws.receive_json_from(timeout=5)  # the first news
        await ws.send_to(text_data=text)
        assert (await ws.receive_json_from(timeout=5))["type"] == "error"
        await ws.send_json_to({"type": "ping"})
        assert (await ws.receive_json_from(timeout=5))["type"] == "pong"
        await ws.disconnect()

    async_to_sync(scenario)()


@pytest.mark.parametrize("text", ["\x00", "\ud800"], ids=["nul", "lone-surrogate"])
def test_the_chat_service_refuses_nul_and_lone_surrogates(game_of_two, text):
    game, ana, bob = game_of_two
    with pytest.raises(ServiceError) as refusal:
        services.chat_post(game_id=game.id, user=ana, body=f"hi{text}")
    assert refusal.value.code == "bad_message"
    line = services.chat_post(game_id=game.id, user=ana, body="gg")
    with pytest.raises(ServiceError) as refusal:
        services.chat_report(message_id=line.pk, user=bob, reason=f"rude{text}")
    assert refusal.value.code == "bad_message"
    assert ChatMessage.objects.count() == 1 and Report.objects.count() == 0
