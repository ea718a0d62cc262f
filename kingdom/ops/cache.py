"""Django's Redis cache with one connection pool per process.

Django keeps a cache object per async context, so under ASGI every request made a new
``RedisCache``, a new connection pool and a new TCP connection to Redis for its first
cache call (the rate limits: players/throttles.py): about 40% of that call's CPU. Here
the client, and so the pool, is shared by every instance with the same settings. redis-py's
pool is thread-safe.
"""

from __future__ import annotations

import threading
from typing import Any

from django.core.cache.backends.redis import RedisCache
from django.utils.functional import cached_property

_clients: dict[tuple, Any] = {}
_lock = threading.Lock()


class SharedPoolRedisCache(RedisCache):
    @cached_property
    def _cache(self) -> Any:
        key = (tuple(self._servers), repr(sorted(self._options.items())))
        with _lock:
            client = _clients.get(key)
            if client is None:
                client = _clients[key] = self._class(self._servers, **self._options)
        return client
