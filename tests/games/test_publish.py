"""games/publish.py: a publish from a plain thread (a Celery worker, the embedded bot
runner, a write in a request's thread) goes through the process's one publisher loop and
reaches the group's sockets; a forked child makes its own loop."""

from __future__ import annotations

import asyncio
import os
import threading
import uuid

import pytest
from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.test import override_settings

from games import publish, publisher
from kingdom.ops.channel_layer import BACKENDS, redis_channel_layer
from tests.conftest import needs_redis

pytestmark = needs_redis


@pytest.fixture(params=sorted(BACKENDS))
def redis_layer(request):
    """Both Redis layers (pub/sub is the default, the lists layer a setting away)."""
    layers = {"default": redis_channel_layer(os.environ["REDIS_URL"], request.param)}
    with override_settings(CHANNEL_LAYERS=layers):
        yield get_channel_layer()


def test_publishes_from_plain_threads_reach_the_group_through_one_publisher(redis_layer):
    game_id = uuid.uuid4()
    senders = []

    def write(head: int) -> None:
        publish.game_advanced(game_id, head)
        senders.append(publisher.publisher())

    def write_from_two_threads() -> None:
        for head in (1, 2):
            thread = threading.Thread(target=write, args=(head,))
            thread.start()
            thread.join()

    async def listen_while_they_write() -> list[dict]:
        # One loop for the listening side: a pub/sub layer subscribes per event loop.
        channel = await redis_layer.new_channel()
        await redis_layer.group_add(publish.game_group(game_id), channel)
        await asyncio.to_thread(write_from_two_threads)
        return [await asyncio.wait_for(redis_layer.receive(channel), 5) for _ in range(2)]

    received = async_to_sync(listen_while_they_write)()
    assert [message["head"] for message in received] == [1, 2]
    assert senders[0] is senders[1] and senders[0].is_alive()


def test_a_forked_child_makes_its_own_publisher(monkeypatch):
    parent = publisher.publisher()
    monkeypatch.setattr(os, "getpid", lambda: -1)  # as in a child after fork
    child = publisher.publisher()
    assert child is not parent and child.is_alive()
    assert publisher.publisher() is child
