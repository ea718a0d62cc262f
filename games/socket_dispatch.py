"""A socket consumer's messages, from its client and from the channel layer, handled one
at a time in the order they arrive.

Channels' ``await_many_dispatch`` starts a new task for a source each time it yields a
message and waits for either with ``asyncio.wait``: per message a task, a waiter and
callbacks added to and taken off both tasks. A socket handles about three messages a
move (its client's command, and the group message on the mover's and the opponent's
sockets). Here each source has one task for the consumer's life, which puts what it
receives on a queue; the consumer takes from the queue. As in Channels, one message is
handled at a time, a source's error ends the consumer, and leaving cancels the sources
(the channel layer's ``receive`` cleans its channel up on that cancel).
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Awaitable, Callable
from typing import Any

Source = Callable[[], Awaitable[Any]]


async def _pump(source: Source, arrived: asyncio.Queue) -> None:
    try:
        while True:
            arrived.put_nowait((await source(), None))
    except asyncio.CancelledError:
        raise
    except BaseException as exc:  # handed to the consumer, which ends with it
        arrived.put_nowait((None, exc))


async def dispatch_in_arrival_order(
    sources: list[Source], dispatch: Callable[[Any], Awaitable[None]]
) -> None:
    """``dispatch`` each message of ``sources`` in turn, until a source or ``dispatch``
    raises (Channels' ``StopConsumer`` at a disconnect)."""
    arrived: asyncio.Queue = asyncio.Queue()
    pumps = [asyncio.create_task(_pump(source, arrived)) for source in sources]
    try:
        while True:
            message, error = await arrived.get()
            if error is not None:
                raise error
            await dispatch(message)
    finally:
        for pump in pumps:
            pump.cancel()
        for pump in pumps:
            with contextlib.suppress(asyncio.CancelledError):
                await pump
