"""infra/channel_layer.py: channels_redis' pub/sub layer by default, the lists layer by setting,
and pub/sub names kept apart by REDIS_URL's database number as Redis keeps keys apart."""

from __future__ import annotations

import asyncio
import os
from urllib.parse import urlparse, urlunparse

import pytest
from channels_redis.pubsub import RedisPubSubChannelLayer

from infra.channel_layer import BACKENDS, redis_channel_layer
from tests.conftest import needs_redis


def test_pub_sub_is_the_default_and_the_lists_layer_a_setting_away():
    assert redis_channel_layer("redis://h:6379/2")["BACKEND"] == BACKENDS["pubsub"]
    assert redis_channel_layer("redis://h:6379/2", "lists")["BACKEND"] == BACKENDS["lists"]
    with pytest.raises(ValueError, match="CHANNEL_LAYER must be one of"):
        redis_channel_layer("redis://h:6379/2", "memory")


def test_the_prefix_carries_the_database_number():
    assert redis_channel_layer("redis://h:6379/5")["CONFIG"]["prefix"] == "kingdom.5."
    assert redis_channel_layer("redis://h:6379")["CONFIG"]["prefix"] == "kingdom.0."


def _on_database(url: str, number: int) -> str:
    return urlunparse(urlparse(url)._replace(path=f"/{number}"))


@needs_redis
def test_a_group_message_on_one_database_number_never_reaches_another():
    url = os.environ["REDIS_URL"]
    here, there = (
        RedisPubSubChannelLayer(**redis_channel_layer(_on_database(url, n))["CONFIG"])
        for n in (11, 12)
    )

    async def both_listen_here_sends() -> tuple[dict, bool]:
        mine, theirs = await here.new_channel(), await there.new_channel()
        await here.group_add("lobby", mine)
        await there.group_add("lobby", theirs)
        await here.group_send("lobby", {"type": "lobby.changed", "game": "g"})
        received = await asyncio.wait_for(here.receive(mine), 5)
        try:
            await asyncio.wait_for(there.receive(theirs), 0.5)
        except TimeoutError:
            return received, False
        return received, True

    received, leaked = asyncio.run(both_listen_here_sends())
    assert received["game"] == "g"
    assert not leaked
