"""The channel layer on Redis: how a game's news reaches the processes holding its sockets.

channels_redis' pub/sub layer by default: a group message is one PUBLISH, and every
process subscribed to the group receives it once and hands it to its own sockets. Its
list layer (``CHANNEL_LAYER=lists``) keeps a message for a socket whose process is not
listening at that instant, which this service does not need: a socket catches up by seq.
``bench live`` measures either (docs/performance.md).

Pub/sub channel names belong to the whole Redis server, not to the database number in
REDIS_URL, so the prefix carries that number: two deployments on one Redis (or a test run
and a benchmark) stay apart as their keys do.
"""

from __future__ import annotations

from typing import Any
from urllib.parse import urlparse

BACKENDS = {
    "pubsub": "channels_redis.pubsub.RedisPubSubChannelLayer",
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
