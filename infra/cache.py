"""One Redis connection pool per process for Django's cache.

Django keeps a cache object per async context, so under ASGI every request makes a new
``RedisCache`` and, through it, a new connection pool, which opens a new TCP connection
to Redis for the request's first cache call (the rate limits, the socket tickets). The
cache's ``pool_class`` option (Django's documented hook) names this pool class instead:
its ``from_url`` gives every cache object of the process the same pool for the same
server and options. redis-py's pool is thread-safe.
"""

from __future__ import annotations

import threading
from typing import Any

import redis
from django.conf import settings

_pools: dict[tuple[str, str], redis.ConnectionPool] = {}
_lock = threading.Lock()


class SharedConnectionPool(redis.ConnectionPool):
    @classmethod
    def from_url(cls, url: str, **kwargs: Any) -> redis.ConnectionPool:  # type: ignore[override]
        key = (url, repr(sorted(kwargs.items())))
        with _lock:
            pool = _pools.get(key)
            if pool is None:
                pool = _pools[key] = redis.ConnectionPool.from_url(url, **kwargs)
            return pool


_clients: dict[tuple[str, str], redis.Redis] = {}


def redis_client(alias: str = "default") -> redis.Redis:
    """A redis-py client on the pool of the cache ``alias`` (its server and options), for
    what Django's cache API cannot say, such as a script (players/throttles.py)."""
    config: dict[str, Any] = settings.CACHES[alias]
    options = {k: v for k, v in config.get("OPTIONS", {}).items() if k != "pool_class"}
    key = (config["LOCATION"], repr(sorted(options.items())))
    client = _clients.get(key)
    if client is None:
        pool = SharedConnectionPool.from_url(config["LOCATION"], **options)
        # Two threads may make one each; the pool under both is the same.
        client = _clients.setdefault(key, redis.Redis(connection_pool=pool))
    return client
