"""games/socket_dispatch.py: a consumer's messages from its sources, one at a time in the
order they arrive; a source's error or the handler's ends it, and the sources are
cancelled (as Channels' ``await_many_dispatch`` does)."""

from __future__ import annotations

import asyncio

import pytest
from channels.exceptions import StopConsumer

from games.socket_dispatch import dispatch_in_arrival_order


class Source:
    """Messages put in by the test, received as a consumer's source would."""

    def __init__(self) -> None:
        self.queue: asyncio.Queue = asyncio.Queue()
        self.cancelled = False

    async def __call__(self) -> object:
        try:
            return await self.queue.get()
        except asyncio.CancelledError:
            self.cancelled = True
            raise


def test_messages_are_handled_in_arrival_order_one_at_a_time():
    async def scenario() -> tuple[list[str], int, list[bool]]:
        client, layer = Source(), Source()
        handled, busy, most_busy = [], [0], [0]

        async def dispatch(message: str) -> None:
            busy[0] += 1
            most_busy[0] = max(most_busy[0], busy[0])
            await asyncio.sleep(0.01)  # others arrive meanwhile
            handled.append(message)
            busy[0] -= 1
            if message == "stop":
                raise StopConsumer

        running = asyncio.ensure_future(dispatch_in_arrival_order([client, layer], dispatch))
        for source, message in [(client, "c1"), (layer, "l1"), (layer, "l2"), (client, "c2")]:
            source.queue.put_nowait(message)
            await asyncio.sleep(0)
        client.queue.put_nowait("stop")
        with pytest.raises(StopConsumer):
            await running
        return handled, most_busy[0], [client.cancelled, layer.cancelled]

    handled, most_busy, cancelled = asyncio.run(scenario())
    assert handled == ["c1", "l1", "l2", "c2", "stop"]
    assert most_busy == 1
    assert cancelled == [True, True]


def test_a_sources_error_ends_the_dispatch_with_it_and_cancels_the_others():
    async def scenario() -> tuple[list[str], bool]:
        client = Source()
        handled = []

        async def broken() -> object:
            await asyncio.sleep(0.01)
            raise ConnectionError("the channel layer is gone")

        async def dispatch(message: str) -> None:
            handled.append(message)

        client.queue.put_nowait("c1")
        with pytest.raises(ConnectionError, match="gone"):
            await dispatch_in_arrival_order([client, broken], dispatch)
        return handled, client.cancelled

    handled, cancelled = asyncio.run(scenario())
    assert handled == ["c1"]
    assert cancelled
