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
