"""Many writers on one game through two web processes: one gapless log, and every read
from either process equal to a full replay of it."""

from __future__ import annotations

import random
import threading
import time
from dataclasses import dataclass, field

from games.models import Game
from tests.production.helpers import (
    PRODUCTION,
    Replay,
    assert_audit_passes,
    assert_log_is_sound,
    jsonable,
    open_table,
    seat_of,
    stored_events,
)

pytestmark = PRODUCTION
WRITERS_PER_SEAT = 4
PLAY_SECONDS = 60


@dataclass
class Tally:
    accepted: list[tuple[int, list[dict]]] = field(default_factory=list)  # (seat, events)
    conflicts: int = 0
    refused: list[str] = field(default_factory=list)
    # (server, seat, the /view/ answer, the /legal/ answer) read after an accepted move
    reads: list[tuple[str, int, dict, dict]] = field(default_factory=list)
    lock: threading.Lock = field(default_factory=threading.Lock)


def writer(player, seat, servers, game_id, first, tally, start, stop, rng) -> None:
    try:
        write(player, seat, servers, game_id, first, tally, start, stop, rng)
    except Exception as exc:  # reported by the test, not lost in a thread
        with tally.lock:
            tally.refused.append(f"seat {seat}: {exc!r}")
        stop.set()


def write(player, seat, servers, game_id, first, tally, start, stop, rng) -> None:
    """Submit random legal commands for ``seat``, each request to the next server."""
    clients = [player.http(s) for s in servers]
    turn = first
    start.wait(timeout=30)
    while not stop.is_set():
        http = clients[turn % 2]
        turn += 1
        legal = http.get(f"/api/tables/{game_id}/legal/")
        if not legal["commands"]:
            status = http.get(f"/api/tables/{game_id}/")["status"]
            if status != Game.Status.ACTIVE:
                return
            time.sleep(0.01)
            continue
        command = rng.choice(legal["commands"])
        body = {"command": command, "expected_seq": legal["seq"]}
        status, answer = http.request("POST", f"/api/tables/{game_id}/commands/", body)
        with tally.lock:
            if status == 201:
                tally.accepted.append((seat, answer["events"]))
            elif status == 409:
                tally.conflicts += 1
                continue
            else:
                tally.refused.append(f"{status} {answer} for {command} at {legal['seq']}")
                stop.set()
                return
        # Right after the move, both processes must answer what the log says.
        for other in clients:
            view = other.get(f"/api/tables/{game_id}/view/")
            moves = other.get(f"/api/tables/{game_id}/legal/")
            with tally.lock:
                tally.reads.append((other.base, seat, view, moves))


def test_writers_on_two_processes_leave_one_gapless_log_that_both_read_alike(cluster, player):
    a, b = cluster.urls
    alice, bob = player("alice"), player("bob")
    game_id = open_table(alice.http(a))
    bob.http(b).post(f"/api/tables/{game_id}/join/")
    alice.http(b).post(f"/api/tables/{game_id}/start/")
    seats = {p.name: seat_of(game_id, p.user) for p in (alice, bob)}
    started_at = Game.objects.get(pk=game_id).head_seq

    tally, stop = Tally(), threading.Event()
    start = threading.Barrier(2 * WRITERS_PER_SEAT)
    threads = [
        threading.Thread(
            target=writer,
            args=(p, seats[p.name], [a, b], game_id, i, tally, start, stop, random.Random(i)),
        )
        for p in (alice, bob)
        for i in range(WRITERS_PER_SEAT)
    ]
    for thread in threads:
        thread.start()
    deadline = time.monotonic() + PLAY_SECONDS
    for thread in threads:
        thread.join(timeout=max(0.0, deadline - time.monotonic()))
    stop.set()  # the game did not end in time: the assertions below say so
    for thread in threads:
        thread.join(timeout=30)
        assert not thread.is_alive(), "a writer is stuck"

    assert tally.refused == [], "a command legal at its expected seq was refused"
    game = Game.objects.get(pk=game_id)
    assert game.status == Game.Status.FINISHED, f"not finished at seq {game.head_seq}"
    rows = assert_log_is_sound(game_id)
    # Every accepted command's events are in the log where its answer said, once each.
    accepted = sorted(seq for _seat, events in tally.accepted for seq in [e["seq"] for e in events])
    assert accepted == list(range(started_at + 1, game.head_seq + 1))
    by_seat = {s: stored_events(game_id, s) for s in seats.values()}
    for seat, events in tally.accepted:
        logged = {e[0]: e for e in by_seat[seat]}
        for event in events:
            assert logged[event["seq"]] == (
                event["seq"],
                event["type"],
                jsonable(event["data"]),
                event["actor"],
            )
    assert len(tally.accepted) > 20 and tally.conflicts > 0, "the writers never raced"

    replay = Replay(game_id, list(seats.values()))
    assert len(tally.reads) == 2 * len(tally.accepted)
    for server, seat, view, moves in tally.reads:
        assert view["state"] == replay.views[view["seq"], seat], f"{server} view at {view['seq']}"
        assert moves["commands"] == replay.legal[moves["seq"], seat], f"{server} legal"
    assert len(rows) == game.head_seq
    assert_audit_passes(game_id)
