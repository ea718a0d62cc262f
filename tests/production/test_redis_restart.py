"""Redis restarted empty (no persistence) in the middle of a game with a bot."""

from __future__ import annotations

import random

from games.models import Game
from tests.production.clients import GameStream
from tests.production.helpers import (
    PRODUCTION,
    assert_audit_passes,
    assert_log_is_sound,
    brief,
    open_table,
    play_randomly,
    seat_of,
    started_pair,
    stored_events,
)
from tests.production.processes import wait_until

pytestmark = PRODUCTION
HEARTBEAT = 1.0  # the browser's 20 s, scaled down
CATCH_UP_SECONDS = 30


def recovered(stream: GameStream, beats: int, connections: int) -> bool:
    """Reconnected since, or two heartbeats sent since were answered (the first one's
    renewal of the group done)."""
    return len(stream.connections) > connections or stream.answered >= beats + 2


def test_after_a_redis_restart_sockets_catch_up_and_bots_play_on(cluster, player):
    a, b = cluster.urls
    ana, carol, dave = player("ana"), player("carol"), player("dave")
    game_id = open_table(ana.http(a))
    ana.http(b).post(f"/api/tables/{game_id}/bots/", {"level": "medium"}, expect=201)
    ana.http(a).post(f"/api/tables/{game_id}/start/")
    seat = seat_of(game_id, ana.user)
    # Two sockets on A: a process reads the channel layer for all its sockets at once, so
    # a socket may be dropped when Redis goes away or stay open (and be renewed).
    streams = {
        seat: GameStream([a, b], game_id, ana.cookie, heartbeat=HEARTBEAT, name="ana on A"),
        None: GameStream([a, b], game_id, carol.cookie, heartbeat=HEARTBEAT, name="carol on A"),
        "dave": GameStream([b, a], game_id, dave.cookie, heartbeat=HEARTBEAT, name="dave on B"),
    }
    for stream in streams.values():
        stream.start()
    rng = random.Random(5)
    try:
        play_randomly(game_id, {seat: ana}, [a, b], rng, moves=8)
        before = Game.objects.get(pk=game_id).head_seq
        marks = {s.name: (s.beats, len(s.connections)) for s in streams.values()}
        cluster.redis.restart()
        # A socket the server dropped reconnects; one it kept is renewed by the heartbeat.
        for stream in streams.values():
            wait_until(
                lambda s=stream: recovered(s, *marks[s.name]),
                f"{stream.name} to reconnect or beat after the restart",
                CATCH_UP_SECONDS,
            )
        # From here on only the live stream (and REST after a gap) may bring news.
        for stream in streams.values():
            stream.heartbeat = None
        play_randomly(game_id, {seat: ana}, [a, b], rng)
        game = Game.objects.get(pk=game_id)
        assert game.status == Game.Status.FINISHED
        assert game.head_seq > before + 10
        for stream in streams.values():
            stream.wait_for_seq(game.head_seq, CATCH_UP_SECONDS)
    finally:
        for stream in streams.values():
            stream.stop()

    for viewer, stream in streams.items():
        seen_as = None if viewer == "dave" else viewer
        assert [brief(e) for e in stream.log] == stored_events(game_id, seen_as), stream.name
        _server, live = stream.connections[-1]
        assert live and live[-1] == game.head_seq, stream.name
    assert_log_is_sound(game_id)
    assert_audit_passes(game_id)


def test_sockets_that_outlive_redis_losing_its_groups_get_live_news_again(cluster, player):
    """A restart the servers' connections got through (redis-py reconnects a command issued
    while Redis was down: the socket stays open) forgets the groups all the same. FLUSHALL
    is that loss alone: a socket must get live news again once its heartbeat ran."""
    a, b = cluster.urls
    alice, bob = player("alice"), player("bob")
    game_id, seats = started_pair(alice, bob, create_on=a, join_on=b, start_on=a)
    streams = {
        seat: GameStream([a, b], game_id, p.cookie, heartbeat=HEARTBEAT, name=f"{p.name} on A")
        for seat, p in seats.items()
    }
    for stream in streams.values():
        stream.start()
    rng = random.Random(7)
    try:
        play_randomly(game_id, seats, [a, b], rng, moves=4)
        marks = {s.name: (s.beats, len(s.connections)) for s in streams.values()}
        cluster.redis.client().flushall()
        for stream in streams.values():
            wait_until(
                lambda s=stream: s.answered >= marks[s.name][0] + 2,
                f"{stream.name} to beat twice after the flush",
                CATCH_UP_SECONDS,
            )
            stream.heartbeat = None
        play_randomly(game_id, seats, [b, a], rng, moves=10)
        head = Game.objects.get(pk=game_id).head_seq
        for stream in streams.values():
            stream.wait_for_seq(head, CATCH_UP_SECONDS)
    finally:
        for stream in streams.values():
            stream.stop()

    for viewer, stream in streams.items():
        assert len(stream.connections) == 1, f"{stream.name}: {stream.problems}"
        assert stream.socket_seqs() == list(range(1, head + 1)), stream.name
        assert [brief(e) for e in stream.log] == stored_events(game_id, viewer)[:head]
