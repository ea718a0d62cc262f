"""The live stream: catch-up then live events in seq order, redacted per viewer."""

from __future__ import annotations

import json

import pytest
from asgiref.sync import async_to_sync, sync_to_async
from channels.routing import URLRouter
from channels.testing import WebsocketCommunicator
from django.contrib.auth.models import AnonymousUser

from games import selectors, services
from games.models import GameEvent
from games.routing import websocket_urlpatterns
from tests.games.helpers import table_with_bots

pytestmark = pytest.mark.django_db(transaction=True)
app = URLRouter(websocket_urlpatterns)


def connect(path: str, user) -> WebsocketCommunicator:
    communicator = WebsocketCommunicator(app, path)
    communicator.scope["user"] = user
    return communicator


def legal_for(game_id, user) -> dict:
    game = selectors.get_game(game_id)
    return selectors.legal_commands(game, selectors.viewer_seat(game, user))


def test_catch_up_then_live_events_in_seq_order(make_user):
    user = make_user()
    game = table_with_bots(user, bots=1)
    services.game_start(game_id=game.id, user=user)

    async def scenario():
        ws = connect(f"/ws/games/{game.id}/?after=0", user)
        connected, _ = await ws.connect()
        assert connected
        first = await ws.receive_json_from(timeout=5)
        seqs = [e["seq"] for e in first["events"]]
        assert seqs == list(range(1, first["head"] + 1))
        assert first["legal"], "it is our turn after the bot moved inline"
        command = first["legal"][0]
        await sync_to_async(services.game_submit)(game_id=game.id, user=user, command=command)
        live = await ws.receive_json_from(timeout=5)
        assert live["events"][0]["seq"] == first["head"] + 1
        all_seqs = seqs + [e["seq"] for e in live["events"]]
        assert all_seqs == sorted(set(all_seqs))
        fresh = await sync_to_async(selectors.game_view)(
            await sync_to_async(selectors.get_game)(game.id), live["your_seat"]
        )
        if fresh["seq"] == live["head"]:
            assert fresh["state"] == live["view"]
        await ws.disconnect()

    async_to_sync(scenario)()


def test_connect_after_a_seq_sends_only_newer_events(make_user):
    user = make_user()
    game = table_with_bots(user, bots=1)
    services.game_start(game_id=game.id, user=user)
    game.refresh_from_db()

    async def scenario():
        ws = connect(f"/ws/games/{game.id}/?after={game.head_seq - 1}", user)
        await ws.connect()
        message = await ws.receive_json_from(timeout=5)
        assert [e["seq"] for e in message["events"]] == [game.head_seq]
        await ws.send_json_to({"type": "resync", "after": 0})
        again = await ws.receive_json_from(timeout=5)
        # A client that lost its events asks again from its own last seq.
        assert [e["seq"] for e in again["events"]] == list(range(1, game.head_seq + 1))
        await ws.disconnect()

    async_to_sync(scenario)()


def test_spectator_stream_holds_no_private_data(make_user):
    user = make_user()
    game = table_with_bots(user, bots=2, level="easy")  # waits for its human: in progress
    services.game_start(game_id=game.id, user=user)

    async def scenario():
        ws = connect(f"/ws/games/{game.id}/?after=0", AnonymousUser())
        await ws.connect()
        message = await ws.receive_json_from(timeout=5)
        await ws.disconnect()
        return message

    message = async_to_sync(scenario)()
    assert message["your_seat"] is None and message["legal"] == []
    frame = json.dumps(message)
    for row in GameEvent.objects.filter(game=game):
        for data in row.private.values():
            for value in data.values():
                if (
                    isinstance(value, str)
                    and len(value) > 2
                    and value not in json.dumps(row.public)
                ):
                    # The tile may have become public later in the game; check it is not
                    # sent in the event that held it privately.
                    event = next(e for e in message["events"] if e["seq"] == row.seq)
                    assert value not in json.dumps(event["data"])
    assert game.seed not in frame


def test_unknown_game_is_refused(make_user):
    user = make_user()

    async def scenario():
        ws = connect("/ws/games/00000000-0000-0000-0000-000000000000/", user)
        connected, code = await ws.connect()
        return connected, code

    connected, _ = async_to_sync(scenario)()
    assert not connected


def test_lobby_stream_announces_new_tables(make_user):
    user = make_user()

    async def scenario():
        ws = connect("/ws/lobby/", user)
        await ws.connect()
        await sync_to_async(services.table_create)(user=user, ruleset="kingdoms", seats=2)
        message = await ws.receive_json_from(timeout=5)
        await ws.disconnect()
        return message

    message = async_to_sync(scenario)()
    assert message["type"] == "table"
    assert message["table"]["ruleset"] == "kingdoms"
