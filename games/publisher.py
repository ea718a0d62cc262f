"""The process's publisher: one thread sends this process's group messages one after
another, in the order they were handed over.

From a plain thread (a Celery worker, the embedded bot runner, a write in a request's
thread) async_to_sync made a new loop and a new thread per call, and channels_redis a new
connection to Redis for each loop: ~5 ms a publish. Through this one thread it is one
PUBLISH on a kept connection.

On Redis pub/sub, the default layer, the thread publishes itself on a redis-py
connection of its own: the layer's own channel name and bytes
(kingdom/ops/channel_layer.py), and every message waiting at that moment in one write.
The connection asks Redis for no replies (``UnansweredConnection``): waiting for
PUBLISH's count of receivers woke this thread once more per move for nothing it uses,
and on this service's 2-core bench each message between processes costs about what a
move's Python does (six alternating pairs on the socket: 739–796 v 709–744 commands/s,
1.50–1.57 v 1.55–1.61 ms per move). Sending through the layer's asyncio client cost the
thread two event-loop wake-ups and that client's machinery per message: ~0.10–0.16 ms of
a ~0.8 ms command (``bench commands``, with and without publishing). Any other layer
(channels_redis' list layer, tests' fakes) is sent through its own ``group_send`` on the
thread's event loop.

A write hands its message over and goes on: waiting for Redis's answer was ~0.5 ms of a
~2.5 ms move (``bench commands``), and the move is committed whatever Redis says. What it
keeps of waiting:

- order: one sender, first in first out, so a game's heads go out rising, as before;
- no pile-up behind a slow or absent Redis: at most ``PENDING_LIMIT`` messages wait, and a
  writer that finds that many waits up to ``ROOM_WAIT`` seconds for room; a message that
  still finds none, or that Redis does not take within ``PUBLISH_WAIT``, is logged and
  dropped (a lost message costs latency only: clients catch up by seq);
- done before the process goes: ``flush`` waits for what was handed over. Celery runs it
  after each task (a bot's move reaches the table before its worker takes the next), and
  the interpreter at exit.
"""

from __future__ import annotations

import asyncio
import atexit
import logging
import os
import queue
import select
import threading
from itertools import groupby
from typing import Any

import redis

from kingdom.ops.channel_layer import group_channel, pubsub_target

log = logging.getLogger(__name__)

PUBLISH_WAIT = 5.0  # for Redis to take one message (or one pipeline of them)
PENDING_LIMIT = 1000
ROOM_WAIT = 5.0  # for a writer that finds PENDING_LIMIT messages waiting

Item = tuple[Any, str, dict[str, Any]]  # (layer, group, message)


class Publisher:
    """A daemon thread and the FIFO of messages it sends."""

    def __init__(self) -> None:
        self.pid = os.getpid()
        self._room = threading.BoundedSemaphore(PENDING_LIMIT)
        self._queue: queue.SimpleQueue[Item | threading.Event] = queue.SimpleQueue()
        self._loop: asyncio.AbstractEventLoop | None = None  # for layers sent by group_send
        self._connections: dict[str, UnansweredConnection] = {}  # by Redis URL
        self._thread = threading.Thread(target=self._send_in_order, name="publisher", daemon=True)
        self._thread.start()

    def hand_over(self, layer: Any, group: str, message: dict[str, Any]) -> None:
        """Queue ``message`` for ``group`` on ``layer``; returns before it is sent."""
        if not self._room.acquire(timeout=ROOM_WAIT):
            log.error("publisher: %s messages waiting; dropped one to %s", PENDING_LIMIT, group)
            return
        self._queue.put((layer, group, message))

    def is_alive(self) -> bool:
        return self._thread.is_alive()

    def flush(self, timeout: float = PUBLISH_WAIT) -> bool:
        """Wait until every message handed over before this call was sent (or dropped)."""
        if not self.is_alive():
            return False
        sent = threading.Event()
        self._queue.put(sent)
        return sent.wait(timeout)

    def _send_in_order(self) -> None:
        while True:
            batch = [self._queue.get()]
            while len(batch) < PENDING_LIMIT:  # what else waits now goes with it
                try:
                    batch.append(self._queue.get_nowait())
                except queue.Empty:
                    break
            run: list[Item] = []
            for item in batch:
                if isinstance(item, threading.Event):
                    self._send(run)  # a flush waits for what was handed over before it
                    run = []
                    item.set()
                else:
                    run.append(item)
            self._send(run)

    def _send(self, items: list[Item]) -> None:
        # Neighbours on one pub/sub Redis go in one pipeline; the rest one by one, in order.
        for target, same in groupby(items, key=lambda item: pubsub_target(item[0])):
            batch = list(same)
            try:
                if target is None:
                    for item in batch:
                        self._group_send(*item)
                else:
                    self._publish(target, batch)
            finally:
                for _ in batch:
                    self._room.release()

    def _publish(self, target: tuple[str, str], batch: list[Item]) -> None:
        url, prefix = target
        try:
            connection = self._connections.get(url)
            if connection is None:
                connection = self._connections[url] = UnansweredConnection(url)
            connection.send(
                [
                    ("PUBLISH", group_channel(prefix, group), layer.serialize(message))
                    for layer, group, message in batch
                ]
            )
        except Exception:  # the log is committed; a lost notice is recovered by seq
            groups = sorted({group for _, group, _ in batch})
            log.exception("could not publish to %s", ", ".join(groups))

    def _group_send(self, layer: Any, group: str, message: dict[str, Any]) -> None:
        if self._loop is None:
            self._loop = asyncio.new_event_loop()
        try:
            self._loop.run_until_complete(
                asyncio.wait_for(layer.group_send(group, message), PUBLISH_WAIT)
            )
        except Exception:  # the log is committed; a lost notice is recovered by seq
            log.exception("could not publish to %s", group)


class UnansweredConnection:
    """A connection to Redis that asks for no replies (``CLIENT REPLY OFF``): a publish is
    a write, and no answer comes back to wake this thread. Redis never writes to it, so a
    socket that reads as ready has been closed by Redis (a restart): it is reconnected
    before the write rather than found dead after it."""

    def __init__(self, url: str) -> None:
        self._connection = redis.ConnectionPool.from_url(
            url, socket_timeout=PUBLISH_WAIT, socket_connect_timeout=PUBLISH_WAIT
        ).make_connection()
        self._connection.register_connect_callback(self._replies_off)

    def _replies_off(self, connection: Any) -> None:
        connection.send_command("CLIENT", "REPLY", "OFF", check_health=False)

    def send(self, commands: list[tuple]) -> None:
        packed = self._connection.pack_commands(commands)
        sock = self._connection._sock
        if sock is not None and select.select([sock], [], [], 0)[0]:
            self._connection.disconnect()  # closed by Redis
        try:
            self._connection.send_packed_command(packed, check_health=False)
        except redis.ConnectionError:  # once more, at once, on a new connection
            self._connection.disconnect()
            self._connection.send_packed_command(packed, check_health=False)


_publisher: Publisher | None = None
_publisher_lock = threading.Lock()


def publisher() -> Publisher:
    """This process's publisher (a forked child, Celery's prefork pool, makes its own: it
    inherits the object but not its thread)."""
    global _publisher
    with _publisher_lock:
        if _publisher is None or _publisher.pid != os.getpid():
            _publisher = Publisher()
        return _publisher


def flush(timeout: float = PUBLISH_WAIT) -> bool:
    """Wait for this process's handed-over messages, if it has a publisher."""
    current = _publisher
    if current is None or current.pid != os.getpid():
        return True
    return current.flush(timeout)


def flush_after_task(**_: Any) -> None:
    """Celery's ``task_postrun``: a task's messages are sent before it counts as done."""
    flush()


atexit.register(flush)
