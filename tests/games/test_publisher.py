"""games/publisher.py: a write hands its message over and goes on; one sender keeps the
order; a slow or failing layer is bounded and logged, never a pile-up; ``flush`` waits for
what was handed over (Celery after each task, the interpreter at exit)."""

from __future__ import annotations

import asyncio
import logging
import threading

import pytest

from games import publisher as publisher_module
from games.publisher import Publisher
from tests.conftest import needs_redis


class RecordingLayer:
    """A channel layer that records what it is sent; closed ``gate``: Redis not answering."""

    def __init__(self, fail_on: set[int] | None = None) -> None:
        self.sent: list[tuple[str, dict]] = []
        self.gate = threading.Event()
        self.gate.set()
        self.fail_on = fail_on or set()

    async def group_send(self, group: str, message: dict) -> None:
        while not self.gate.is_set():
            await asyncio.sleep(0.005)
        if message.get("head") in self.fail_on:
            raise ConnectionError("redis is gone")
        self.sent.append((group, message))


def heads(layer: RecordingLayer) -> list[int]:
    return [message["head"] for _, message in layer.sent]


def test_messages_go_out_in_the_order_they_were_handed_over():
    layer, sender = RecordingLayer(), Publisher()
    for head in range(1, 201):
        sender.hand_over(layer, "game.g", {"type": "game.advanced", "head": head})
    assert sender.flush()
    assert heads(layer) == list(range(1, 201))
    assert {group for group, _ in layer.sent} == {"game.g"}


def test_a_write_does_not_wait_for_redis_and_flush_does():
    layer, sender = RecordingLayer(), Publisher()
    layer.gate.clear()
    sender.hand_over(layer, "game.g", {"head": 1})  # returns with Redis silent
    assert not sender.flush(timeout=0.2)
    assert layer.sent == []
    layer.gate.set()
    assert sender.flush()
    assert heads(layer) == [1]


def test_a_message_redis_refuses_is_logged_and_the_next_still_goes(caplog):
    layer, sender = RecordingLayer(fail_on={2}), Publisher()
    with caplog.at_level(logging.ERROR, logger="games.publisher"):
        for head in (1, 2, 3):
            sender.hand_over(layer, "game.g", {"head": head})
        assert sender.flush()
    assert heads(layer) == [1, 3]
    assert "could not publish to game.g" in caplog.text


def test_with_redis_stuck_at_most_pending_limit_messages_wait_and_the_rest_are_dropped(
    monkeypatch, caplog
):
    monkeypatch.setattr(publisher_module, "PENDING_LIMIT", 3)
    monkeypatch.setattr(publisher_module, "ROOM_WAIT", 0.2)
    layer, sender = RecordingLayer(), Publisher()
    layer.gate.clear()
    with caplog.at_level(logging.ERROR, logger="games.publisher"):
        for head in range(1, 6):
            sender.hand_over(layer, "game.g", {"head": head})
    assert caplog.text.count("3 messages waiting; dropped one to game.g") == 2
    layer.gate.set()
    assert sender.flush()
    assert heads(layer) == [1, 2, 3]


def test_celerys_task_end_waits_for_the_tasks_messages(monkeypatch):
    layer, sender = RecordingLayer(), Publisher()
    monkeypatch.setattr(publisher_module, "_publisher", sender)
    layer.gate.clear()
    sender.hand_over(layer, "game.g", {"head": 7})
    threading.Timer(0.1, layer.gate.set).start()
    publisher_module.flush_after_task(task_id="t")
    assert heads(layer) == [7]


def test_the_celery_app_flushes_after_every_task():
    from celery import signals

    import kingdom.celery  # noqa: F401 - connects the signals

    receivers = [receiver for _, receiver in signals.task_postrun.receivers]  # weak=False
    assert publisher_module.flush_after_task in receivers


@pytest.mark.parametrize("pid_changed", [False, True])
def test_flush_without_a_publisher_of_this_process_has_nothing_to_wait_for(
    monkeypatch, pid_changed
):
    if pid_changed:
        monkeypatch.setattr(publisher_module, "_publisher", Publisher())
        monkeypatch.setattr(publisher_module.os, "getpid", lambda: -1)
    else:
        monkeypatch.setattr(publisher_module, "_publisher", None)
    assert publisher_module.flush() is True


@needs_redis
def test_an_unanswered_connection_publishes_hears_nothing_back_and_survives_a_kill():
    """Publishes arrive in order; Redis writes nothing back (so nothing wakes the
    publisher); a connection Redis closed is noticed before the next write, not lost."""
    import os
    import select
    import time

    import redis

    from games.publisher import UnansweredConnection

    url = os.environ["REDIS_URL"]
    listener = redis.Redis.from_url(url).pubsub(ignore_subscribe_messages=True)
    listener.subscribe("kingdom-test-unanswered")
    unanswered = UnansweredConnection(url)

    def heard(count: int) -> list[bytes]:
        got, deadline = [], time.monotonic() + 5
        while len(got) < count and time.monotonic() < deadline:
            message = listener.get_message(timeout=0.5)
            if message is not None:
                got.append(message["data"])
        return got

    unanswered.send([("PUBLISH", "kingdom-test-unanswered", str(n)) for n in range(3)])
    assert heard(3) == [b"0", b"1", b"2"]
    sock = unanswered._connection._sock
    assert select.select([sock], [], [], 0.2)[0] == [], "Redis answered"

    host, port = sock.getsockname()[:2]
    redis.Redis.from_url(url).client_kill(f"{host}:{port}")
    time.sleep(0.2)  # the close reaches this side
    unanswered.send([("PUBLISH", "kingdom-test-unanswered", "after")])
    assert heard(1) == [b"after"]
    assert unanswered._connection._sock is not sock
    listener.close()
