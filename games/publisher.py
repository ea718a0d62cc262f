"""The process's publisher: one event loop, in its own thread, sends this process's group
messages one after another, in the order they were handed over.

From a plain thread (a Celery worker, the embedded bot runner, a write in a request's
thread) async_to_sync made a new loop and a new thread per call, and channels_redis a new
connection to Redis for each loop: ~5 ms a publish. Through this one loop it is one
PUBLISH on a kept connection.

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
import threading
from typing import Any

log = logging.getLogger(__name__)

PUBLISH_WAIT = 5.0  # for Redis to take one message
PENDING_LIMIT = 1000
ROOM_WAIT = 5.0  # for a writer that finds PENDING_LIMIT messages waiting


class Publisher:
    """An event loop in a daemon thread and the FIFO of messages it sends."""

    def __init__(self) -> None:
        self.pid = os.getpid()
        self.loop = asyncio.new_event_loop()
        self._room = threading.BoundedSemaphore(PENDING_LIMIT)
        self._queue: asyncio.Queue[tuple[Any, str, dict[str, Any]] | threading.Event] = (
            asyncio.Queue()
        )
        # The thread holds the sender for as long as it runs: a task only the loop knows
        # of could be collected with its queue.
        threading.Thread(
            target=self.loop.run_until_complete,
            args=(self._send_in_order(),),
            name="publisher",
            daemon=True,
        ).start()

    def hand_over(self, layer: Any, group: str, message: dict[str, Any]) -> None:
        """Queue ``message`` for ``group`` on ``layer``; returns before it is sent."""
        if not self._room.acquire(timeout=ROOM_WAIT):
            log.error("publisher: %s messages waiting; dropped one to %s", PENDING_LIMIT, group)
            return
        self.loop.call_soon_threadsafe(self._queue.put_nowait, (layer, group, message))

    def flush(self, timeout: float = PUBLISH_WAIT) -> bool:
        """Wait until every message handed over before this call was sent (or dropped)."""
        if not self.loop.is_running():
            return False
        sent = threading.Event()
        self.loop.call_soon_threadsafe(self._queue.put_nowait, sent)
        return sent.wait(timeout)

    async def _send_in_order(self) -> None:
        while True:
            item = await self._queue.get()
            if isinstance(item, threading.Event):
                item.set()
                continue
            layer, group, message = item
            try:
                await asyncio.wait_for(layer.group_send(group, message), PUBLISH_WAIT)
            except Exception:  # the log is committed; a lost notice is recovered by seq
                log.exception("could not publish to %s", group)
            finally:
                self._room.release()


_publisher: Publisher | None = None
_publisher_lock = threading.Lock()


def publisher() -> Publisher:
    """This process's publisher (a forked child, Celery's prefork pool, makes its own: it
    inherits the loop but not its thread)."""
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
