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
from games.sockets.routing import websocket_urlpatterns
from tests.games.helpers import (
    game_with_bots,
    humans_game,
    play_out,
    secrets_by_seq,
    seed_revealed_at,
    string_values,
    to_act,
)

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
    # Two people and no bots: nothing moves between the command and the live message, so
    # the live message is exactly the game at its new head.
    ana, bob = make_user("ana"), make_user("bob")
    game = humans_game([ana, bob])
    (seat,) = to_act(game)
    mover = next(user for user in (ana, bob) if game.seats.get(user=user).number == seat)

    async def scenario():
        ws = connect(f"/ws/games/{game.id}/?after=0", mover)
        connected, _ = await ws.connect()
        assert connected
        first = await ws.receive_json_from(timeout=5)
        seqs = [e["seq"] for e in first["events"]]
        assert first["head"] == game.head_seq
        assert seqs == list(range(1, first["head"] + 1))
        assert first["legal"], "it is this player's turn"
        await sync_to_async(services.game_submit)(
            game_id=game.id, user=mover, command=first["legal"][0]
        )
        live = await ws.receive_json_from(timeout=5)
        moved = await sync_to_async(selectors.get_game)(game.id)
        assert live["head"] == moved.head_seq > first["head"]
        live_seqs = [e["seq"] for e in live["events"]]
        assert live_seqs == list(range(first["head"] + 1, moved.head_seq + 1))
        fresh = await sync_to_async(selectors.game_view)(moved, live["your_seat"])
        assert fresh["seq"] == live["head"]
        assert fresh["state"] == live["view"]
        assert await ws.receive_nothing(timeout=0.2)
        await ws.disconnect()

    async_to_sync(scenario)()


def test_connect_after_a_seq_sends_only_newer_events(make_user):
    user = make_user()
    game = game_with_bots(user, bots=1)
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
    game = game_with_bots(user, bots=2, level="easy")  # waits for its human: in progress
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
        assert await ws.receive_json_from(timeout=5) == {"type": "turns", "turns": {}}
        await sync_to_async(services.table_create)(user=user, ruleset="kingdoms", seats=2)
        message = await ws.receive_json_from(timeout=5)
        await ws.disconnect()
        return message

    message = async_to_sync(scenario)()
    assert message["type"] == "table"
    assert message["table"]["ruleset"] == "kingdoms"


def test_a_seat_streams_its_own_starting_tiles_and_never_the_other_seats(make_user):
    # Two people, no bots: every message answers one command, so the stream is the same
    # on every run. The whole game is played, all three epochs.
    ana, bob = make_user("ana"), make_user("bob")
    game = humans_game([ana, bob])
    seat = game.seats.get(user=ana).number

    async def scenario() -> list[dict]:
        ws = connect(f"/ws/games/{game.id}/?after=0", ana)
        connected, _ = await ws.connect()
        assert connected
        messages = [await ws.receive_json_from(timeout=5)]
        while messages[-1]["status"] == "active":
            await sync_to_async(play_out)(game, [ana, bob], moves=1)
            messages.append(await ws.receive_json_from(timeout=5))
        await ws.disconnect()
        return messages

    messages = async_to_sync(scenario)()
    game.refresh_from_db()
    assert game.status == "finished"
    rows = list(GameEvent.objects.filter(game=game).order_by("seq"))
    assert [e["seq"] for m in messages for e in m["events"]] == [r.seq for r in rows]
    secrets = secrets_by_seq("kingdoms", rows, seat)
    revealed = seed_revealed_at(rows, game.seed)
    epochs = [r for r in rows if r.type == "epoch_started"]
    theirs = [e.private[str(1 - seat)]["starting_tile"] for e in epochs]
    assert all(tile in secrets[e.seq] for tile, e in zip(theirs, epochs, strict=True))
    for message in messages:
        for event in message["events"]:
            leaked = string_values(event) & secrets[event["seq"]]
            assert not leaked, f"event {event['seq']} shows {leaked}"
        leaked = string_values(message["view"]) & secrets[message["head"]]
        assert not leaked, f"the view at {message['head']} shows {leaked}"
        assert message["head"] >= revealed or game.seed not in json.dumps(message)
    # The seat's own starting tile of each epoch reached it, in the view and its event.
    own = [e.private[str(seat)]["starting_tile"] for e in epochs]
    held = [m["view"]["starting_tiles"][seat]["tile"] for m in messages]
    assert [tile for tile in own if tile in held] == own
    dealt = [
        e["data"].get("starting_tile")
        for m in messages
        for e in m["events"]
        if e["type"] == "epoch_started"
    ]
    assert dealt == own
