"""One web process killed: its clients reconnect to the other and miss nothing."""

from __future__ import annotations

import random

from games.models import Game
from tests.production.clients import GameStream
from tests.production.helpers import (
    PRODUCTION,
    assert_log_is_sound,
    brief,
    play_randomly,
    started_pair,
    stored_events,
)

pytestmark = PRODUCTION
CATCH_UP_SECONDS = 30


def test_clients_of_a_killed_web_process_reconnect_to_the_other_and_miss_nothing(cluster, player):
    a, b = cluster.urls
    alice, bob, carol = player("alice"), player("bob"), player("carol")
    game_id, seats = started_pair(alice, bob, create_on=a, join_on=b, start_on=a)
    # The load balancer's choice: A first for the players, B for the spectator.
    streams = {
        seat: GameStream([a, b], game_id, p.cookie, name=f"seat {seat} on A")
        for seat, p in seats.items()
    }
    streams[None] = GameStream([b, a], game_id, carol.cookie, name="spectator on B")
    for stream in streams.values():
        stream.start()
    rng = random.Random(6)
    try:
        play_randomly(game_id, seats, [a, b], rng, moves=10)
        cluster.processes["web0"].kill()
        play_randomly(game_id, seats, [b], rng)  # the survivor serves everyone now
        game = Game.objects.get(pk=game_id)
        assert game.status == Game.Status.FINISHED
        for stream in streams.values():
            stream.wait_for_seq(game.head_seq, CATCH_UP_SECONDS)
    finally:
        for stream in streams.values():
            stream.stop()

    for viewer, stream in streams.items():
        assert [brief(e) for e in stream.log] == stored_events(game_id, viewer), stream.name
        server, live = stream.connections[-1]
        assert server == b and live and live[-1] == game.head_seq, stream.name
    for seat in seats:
        assert len(streams[seat].connections) >= 2, "the players' sockets moved to B"
    assert len(streams[None].connections) == 1, "the spectator on B never lost its socket"
    assert_log_is_sound(game_id)
