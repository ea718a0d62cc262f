"""games/publishing: a publish from a plain thread (a Celery worker, the embedded bot
runner, a write in a request's thread) reaches the group's sockets through the channel
layer's own group_send by asgiref's async_to_sync, and a publish that fails costs the
writer nothing."""

from __future__ import annotations

import asyncio
import os
import threading
import uuid

import pytest
from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.test import override_settings

from games import publishing
from infra.channel_layer import BACKENDS, redis_channel_layer
from tests.conftest import needs_redis

pytestmark = needs_redis


@pytest.fixture(params=sorted(BACKENDS))
def redis_layer(request):
    """Both Redis layers (pub/sub is the default, the lists layer a setting away)."""
    layers = {"default": redis_channel_layer(os.environ["REDIS_URL"], request.param)}
    with override_settings(CHANNEL_LAYERS=layers):
        yield get_channel_layer()


def test_publishes_from_plain_threads_reach_the_group_in_order(redis_layer):
    game_id = uuid.uuid4()

    def write_from_two_threads() -> None:
        for head in (1, 2):
            notices = [publishing.game_advanced(game_id, head)]
            thread = threading.Thread(target=publishing.send, args=(notices,))
            thread.start()
            thread.join()

    async def listen_while_they_write() -> list[dict]:
        # One loop for the listening side: a pub/sub layer subscribes per event loop.
        channel = await redis_layer.new_channel()
        await redis_layer.group_add(publishing.game_group(game_id), channel)
        await asyncio.to_thread(write_from_two_threads)
        return [await asyncio.wait_for(redis_layer.receive(channel), 5) for _ in range(2)]

    received = async_to_sync(listen_while_they_write)()
    assert [message["head"] for message in received] == [1, 2]


def test_a_publish_that_fails_is_logged_and_the_caller_goes_on(caplog, monkeypatch):
    layer = get_channel_layer()

    async def refused(group, message):
        raise ConnectionError("Redis is down")

    monkeypatch.setattr(layer, "group_send", refused)
    publishing.send([publishing.game_advanced(uuid.uuid4(), 3)])
    assert "could not publish" in caplog.text


def test_publishes_from_a_main_thread_reach_the_group_on_one_loop_of_its_own(
    redis_layer, monkeypatch
):
    """A Celery prefork worker or a management command publishes from its main thread: one
    event loop of its own serves every publish (not a new loop and connection each)."""
    game_id = uuid.uuid4()
    subscribed, received = threading.Event(), []
    loops: list[asyncio.AbstractEventLoop] = []
    asend = publishing.asend

    async def recording_asend(notices) -> None:
        loops.append(asyncio.get_running_loop())
        await asend(notices)

    async def listen() -> None:
        channel = await redis_layer.new_channel()
        await redis_layer.group_add(publishing.game_group(game_id), channel)
        subscribed.set()
        for _ in range(2):
            received.append(await asyncio.wait_for(redis_layer.receive(channel), 5))

    listener = threading.Thread(target=asyncio.run, args=(listen(),))
    listener.start()
    assert subscribed.wait(5)
    monkeypatch.setattr(publishing, "asend", recording_asend)
    for head in (1, 2):
        publishing.send([publishing.game_advanced(game_id, head)])
    listener.join(10)

    assert [message["head"] for message in received] == [1, 2]
    assert len(loops) == 2 and loops[0] is loops[1] and not loops[0].is_running()
