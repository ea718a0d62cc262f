"""kingdom/ops/channel_layer.py: Redis pub/sub by default, the lists layer by setting,
and pub/sub names kept apart by REDIS_URL's database number as Redis keeps keys apart."""

from __future__ import annotations

import asyncio
import os
from urllib.parse import urlparse, urlunparse

import pytest
from channels_redis.pubsub import RedisPubSubChannelLayer

from games.publisher import Publisher
from kingdom.ops.channel_layer import BACKENDS, group_channel, pubsub_target, redis_channel_layer
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


def test_the_publisher_publishes_itself_only_to_a_one_url_pub_sub_layer():
    layer = RedisPubSubChannelLayer(**redis_channel_layer("redis://h:6379/4")["CONFIG"])
    assert pubsub_target(layer) == ("redis://h:6379/4", "kingdom.4.")
    assert group_channel("kingdom.4.", "game.g") == "kingdom.4.__group__game.g"
    assert pubsub_target(RedisPubSubChannelLayer(hosts=[("h", 6379)])) is None
    assert pubsub_target(object()) is None


@needs_redis
def test_what_the_publisher_publishes_itself_reaches_the_layers_group_in_order():
    """The publisher's own PUBLISH (channel name and bytes) is what the layer's group
    members receive: the guard on channels_redis' naming."""
    layer = RedisPubSubChannelLayer(
        **redis_channel_layer(_on_database(os.environ["REDIS_URL"], 13))["CONFIG"]
    )
    sender = Publisher()

    async def listen_then_publish() -> list[dict]:
        mine = await layer.new_channel()
        await layer.group_add("game.g", mine)
        for head in range(1, 51):
            sender.hand_over(layer, "game.g", {"type": "game.advanced", "head": head})
        return [await asyncio.wait_for(layer.receive(mine), 5) for _ in range(50)]

    received = asyncio.run(listen_then_publish())
    assert [m["head"] for m in received] == list(range(1, 51))
    assert {m["type"] for m in received} == {"game.advanced"}


def test_a_publish_redis_refuses_is_logged_and_the_next_message_still_goes(caplog):
    gone = RedisPubSubChannelLayer(**redis_channel_layer("redis://127.0.0.1:1/0")["CONFIG"])
    sender = Publisher()
    with caplog.at_level("ERROR", logger="games.publisher"):
        sender.hand_over(gone, "game.g", {"type": "game.advanced", "head": 1})
        assert sender.flush()
    assert "could not publish to game.g" in caplog.text


def test_a_message_that_cannot_be_packed_is_logged_and_the_sender_goes_on(caplog):
    layer = RedisPubSubChannelLayer(**redis_channel_layer("redis://127.0.0.1:1/0")["CONFIG"])
    sender = Publisher()
    with caplog.at_level("ERROR", logger="games.publisher"):
        sender.hand_over(layer, "game.g", {"type": "game.advanced", "head": object()})
        assert sender.flush()
    assert "could not publish to game.g" in caplog.text
    assert sender.is_alive()


@needs_redis
def test_the_layers_shards_wait_for_messages_and_outlive_a_killed_subscription():
    """The default layer's shards read with no timeout: a message after a quiet spell
    arrives, and so does one after Redis drops the subscription (redis-py reconnects and
    subscribes again)."""
    import redis
    from django.utils.module_loading import import_string

    url = _on_database(os.environ["REDIS_URL"], 14)
    config = redis_channel_layer(url)
    layer = import_string(config["BACKEND"])(**config["CONFIG"])

    async def scenario() -> list[int]:
        mine = await layer.new_channel()
        await layer.group_add("game.q", mine)
        [shard] = layer._get_layer()._shards
        assert type(shard).__name__ == "_ShardReadingUntilAMessage"
        heads = []
        await asyncio.sleep(0.3)  # quiet: the old reader would have timed out thrice
        await layer.group_send("game.q", {"type": "game.advanced", "head": 1})
        heads.append((await asyncio.wait_for(layer.receive(mine), 5))["head"])
        host, port = shard._pubsub.connection._writer.get_extra_info("sockname")[:2]
        redis.Redis.from_url(url).client_kill(f"{host}:{port}")
        # One receive waiting throughout, as a consumer's: a cancelled receive would
        # take the channel down (channels_redis cleans up on cancel).
        heard = asyncio.ensure_future(layer.receive(mine))
        for head in range(2, 40):  # until the new subscription hears one
            await layer.group_send("game.q", {"type": "game.advanced", "head": head})
            done, _ = await asyncio.wait({heard}, timeout=0.25)
            if done:
                heads.append(heard.result()["head"])
                break
        heard.cancel()
        await layer.flush()
        return heads

    heads = asyncio.run(scenario())
    assert heads[0] == 1 and len(heads) == 2 and heads[1] > 1
