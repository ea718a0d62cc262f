"""The channel layer on Redis: how a game's news reaches the processes holding its sockets.

Redis pub/sub (``channels_redis.pubsub``) by default: a group message is one PUBLISH, and
every process subscribed to the group receives it once and hands it to its own sockets.
channels_redis' list layer (``core``, ``CHANNEL_LAYER=lists``) reads a group's members
and pushes a copy to each socket's list, each process popping its own: with moves on the
socket, 2 processes and 16 tables, it cost 3.9–4.0 v 2.5–3.0 ms of server CPU per move and
280–287 v 364–436 commands/s (three back-to-back pairs, README "Performance"). What the
list layer keeps that pub/sub does not, a message for a socket whose process is not
listening at that instant, this service does not need: a socket catches up by seq.

The pub/sub layer is channels_redis' with one change: its reader waits for each message
without a timeout (``PubSubChannelLayer``).

Pub/sub channel names belong to the whole Redis server, not to the database number in
REDIS_URL, so the prefix carries that number: two deployments on one Redis (or a test run
and a benchmark) stay apart as their keys do.
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any
from urllib.parse import urlparse

from channels_redis.pubsub import RedisPubSubChannelLayer, RedisSingleShardConnection

log = logging.getLogger(__name__)

BACKENDS = {
    "pubsub": "kingdom.ops.channel_layer.PubSubChannelLayer",
    "lists": "channels_redis.core.RedisChannelLayer",
}


def redis_channel_layer(url: str, kind: str = "pubsub") -> dict[str, Any]:
    """The ``CHANNEL_LAYERS["default"]`` entry for Redis at ``url``."""
    if kind not in BACKENDS:
        raise ValueError(f"CHANNEL_LAYER must be one of {', '.join(BACKENDS)}, not {kind!r}")
    database = urlparse(url).path.strip("/") or "0"
    return {
        "BACKEND": BACKENDS[kind],
        "CONFIG": {"hosts": [url], "prefix": f"kingdom.{database}."},
    }


def pubsub_target(layer: Any) -> tuple[str, str] | None:
    """(Redis URL, channel-name prefix) that a channels_redis pub/sub ``layer`` with one
    host given as a URL (as ``redis_channel_layer`` makes it) publishes to; None for any
    other layer. games/publisher.py publishes there itself."""
    if not isinstance(layer, RedisPubSubChannelLayer):
        return None
    config = layer._kwargs  # the layer's CONFIG, as given
    hosts = config.get("hosts")
    if not isinstance(hosts, list | tuple) or len(hosts) != 1 or not isinstance(hosts[0], str):
        return None
    return hosts[0], config.get("prefix", "asgi")


def group_channel(prefix: str, group: str) -> str:
    """The pub/sub channel of ``group``, named as channels_redis 4.3's pub/sub layer names
    it (``RedisPubSubLoopLayer._get_group_channel_name``); tests/kingdom/
    test_channel_layer.py checks that a message published there reaches the group."""
    return f"{prefix}__group__{group}"


class _ShardReadingUntilAMessage(RedisSingleShardConnection):
    """channels_redis 4.3's shard reads its subscription with a 0.1 s timeout: every
    message then costs an ``asyncio.timeout`` set up and cancelled (3.5% of a loaded
    server's samples on the socket, py-spy ``--gil``), and an idle process wakes ten times
    a second. This one waits for the next message with no timeout, as redis-py's own
    ``listen`` does; a lost connection still ends the read (redis-py raises, and
    resubscribes on the next), and cancelling the task still stops it."""

    async def _do_receiving(self) -> None:
        while True:
            try:
                if self._pubsub and self._pubsub.subscribed:
                    message = await self._pubsub.get_message(
                        ignore_subscribe_messages=True, timeout=None
                    )
                    self._receive_message(message)
                else:
                    await asyncio.sleep(0.1)
            except (TimeoutError, asyncio.CancelledError, GeneratorExit):
                raise
            except BaseException:
                log.exception("the channel layer's subscription failed; reading again in 1 s")
                await asyncio.sleep(1)


class PubSubChannelLayer(RedisPubSubChannelLayer):
    """channels_redis' pub/sub layer, its shards reading as ``_ShardReadingUntilAMessage``."""

    def _get_layer(self) -> Any:
        layer = super()._get_layer()
        for shard in layer._shards:
            if type(shard) is RedisSingleShardConnection:
                shard.__class__ = _ShardReadingUntilAMessage
        return layer
