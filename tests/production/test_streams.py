"""Sockets on one web process receive every event written through the other."""

from __future__ import annotations

import random

from games.models import Game
from tests.production.clients import GameStream
from tests.production.helpers import (
    PRODUCTION,
    brief,
    play_randomly,
    started_pair,
    stored_events,
)

pytestmark = PRODUCTION
CATCH_UP_SECONDS = 15


def test_sockets_on_either_process_receive_every_event_once_in_order(cluster, player):
    a, b = cluster.urls
    alice, bob, carol = player("alice"), player("bob"), player("carol")
    game_id, seats = started_pair(alice, bob, create_on=b, join_on=b, start_on=b)

    streams = {
        seat: GameStream([a], game_id, p.cookie, name=f"seat {seat} on A")
        for seat, p in seats.items()
    }
    streams[None] = GameStream([b], game_id, carol.cookie, name="spectator on B")
    for stream in streams.values():
        stream.start()
    try:
        # Moves through both processes in turn: each socket sees writes from the other.
        played = play_randomly(game_id, seats, [b, a], random.Random(2))
        game = Game.objects.get(pk=game_id)
        assert game.status == Game.Status.FINISHED and played > 20
        for stream in streams.values():
            stream.wait_for_seq(game.head_seq, CATCH_UP_SECONDS)
    finally:
        for stream in streams.values():
            stream.stop()

    everything = list(range(1, game.head_seq + 1))
    for seat, stream in streams.items():
        # The socket alone carried every event, once, in order: no REST, no reconnection.
        assert stream.socket_seqs() == everything, stream.name
        assert len(stream.connections) == 1 and stream.rest_catchups == 0, stream.name
        # ...each as its viewer may see it (a spectator: no seat's secrets).
        assert [brief(e) for e in stream.log] == stored_events(game_id, seat), stream.name


def test_the_web_process_answers_a_socket_without_permessage_deflate(cluster, player):
    """The Procfile's server turns compression off (docs/performance.md): a client that
    offers permessage-deflate, as browsers and websockets do, gets frames uncompressed."""
    from websockets.sync.client import connect

    a, _b = cluster.urls
    alice, bob = player("alice"), player("bob")
    game_id, _seats = started_pair(alice, bob, create_on=a, join_on=a, start_on=a)
    url = f"{a.replace('http://', 'ws://', 1)}/ws/games/{game_id}/"
    with connect(url, origin=a, additional_headers={"Cookie": alice.cookie}) as socket:
        offered = socket.request.headers.get("Sec-WebSocket-Extensions", "")
        assert "permessage-deflate" in offered
        assert socket.response.headers.get("Sec-WebSocket-Extensions") is None
        assert socket.recv(timeout=10).startswith('{"type":"events"')
