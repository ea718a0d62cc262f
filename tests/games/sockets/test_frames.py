"""A frame that is not JSON text, on any socket, gets a JSON error frame; the socket stays
open and answers the next good frame."""

from __future__ import annotations

import pytest
from asgiref.sync import async_to_sync
from channels.routing import URLRouter
from channels.testing import WebsocketCommunicator

from kingdom.routing import websocket_urlpatterns
from tests.games.helpers import humans_game

pytestmark = pytest.mark.django_db(transaction=True)
app = URLRouter(websocket_urlpatterns)
BAD_FRAMES = [
    {"text_data": "not json"},
    {"text_data": "{'single': 'quotes'}"},
    {"text_data": "[" * 100_000},  # deeper than the JSON decoder recurses
    {"bytes_data": b'{"type": "ping"}'},
]


def replies_to_a_bad_frame(path: str, user, frame: dict) -> tuple[dict, dict]:
    """Read the frame the socket greets with (the news, the chat history), send ``frame``
    then a ping; return the answers to both."""

    async def scenario() -> tuple[dict, dict]:
        ws = WebsocketCommunicator(app, path)
        ws.scope["user"] = user
        connected, _ = await ws.connect()
        assert connected
        await ws.receive_json_from(timeout=5)
        await ws.send_to(**frame)
        error = await ws.receive_json_from(timeout=5)
        await ws.send_json_to({"type": "ping"})
        pong = await ws.receive_json_from(timeout=5)
        await ws.disconnect()
        return error, pong

    return async_to_sync(scenario)()


@pytest.mark.parametrize("frame", BAD_FRAMES, ids=["text", "quotes", "deep", "binary"])
@pytest.mark.parametrize("socket", ["/ws/games/{game}/", "/ws/games/{game}/chat/"])
def test_a_frame_that_is_not_json_gets_a_bad_frame_error(make_user, frame, socket):
    ana, bob = make_user("ana"), make_user("bob")
    game = humans_game([ana, bob])
    error, pong = replies_to_a_bad_frame(socket.format(game=game.id), ana, frame)
    assert error["type"] == "error"
    assert error["code"] == "bad_frame"
    assert error["message"]
    assert pong["type"] == "pong", "the socket is still open"


@pytest.mark.parametrize("frame", BAD_FRAMES, ids=["text", "quotes", "deep", "binary"])
def test_the_lobby_answers_a_bad_frame_too(make_user, frame):
    user = make_user("ana")

    async def scenario() -> dict:
        ws = WebsocketCommunicator(app, "/ws/lobby/")
        ws.scope["user"] = user
        connected, _ = await ws.connect()
        assert connected
        assert (await ws.receive_json_from(timeout=5))["type"] == "turns"
        await ws.send_to(**frame)
        reply = await ws.receive_json_from(timeout=5)
        await ws.disconnect()
        return reply

    reply = async_to_sync(scenario)()
    assert (reply["type"], reply["code"]) == ("error", "bad_frame")
