"""Django's Redis cache with one connection pool per process.

Django keeps a cache object per async context, so under ASGI every request made a new
``RedisCache``, a new connection pool and a new TCP connection to Redis for its first
cache call (the rate limits: players/throttles.py): about 40% of that call's CPU. Here
the client, and so the pool, is shared by every instance with the same settings. redis-py's
pool is thread-safe.

Django's client also made a ``redis.Redis`` for every call, and making one fills its table
of ~160 response callbacks: about 0.15 ms of CPU, a third of a rate-limit check. Here it
is made once per pool; a ``redis.Redis`` on a pool is thread-safe too.
"""

from __future__ import annotations

import threading
from typing import Any

from django.core.cache.backends.redis import RedisCache, RedisCacheClient
from django.utils.functional import cached_property

_clients: dict[tuple, Any] = {}
_lock = threading.Lock()


class _ClientPerPool(RedisCacheClient):
    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._made: dict[int, Any] = {}

    def get_client(self, key: Any = None, *, write: bool = False) -> Any:
        pool = self._get_connection_pool(write)
        client = self._made.get(id(pool))
        if client is None:
            client = self._made[id(pool)] = self._client(connection_pool=pool)
        return client


class SharedPoolRedisCache(RedisCache):
    def __init__(self, server: str, params: dict[str, Any]) -> None:
        super().__init__(server, params)
        self._class = _ClientPerPool

    @cached_property
    def _cache(self) -> Any:
        key = (tuple(self._servers), repr(sorted(self._options.items())))
        with _lock:
            client = _clients.get(key)
            if client is None:
                client = _clients[key] = self._class(self._servers, **self._options)
        return client
