"""infra/cache.py: every cache object of a process shares one Redis pool."""

from __future__ import annotations

import asyncio

from django.conf import settings
from django.core.cache.backends.redis import RedisCache

from tests.conftest import needs_redis


def a_cache() -> RedisCache:
    options = {"pool_class": "infra.cache.SharedConnectionPool"}
    return RedisCache(settings.REDIS_URL, {"KEY_PREFIX": "test-cache", "OPTIONS": options})


@needs_redis
def test_caches_made_per_request_share_one_pool_and_its_connections():
    first = a_cache()
    first.set("shared", 1)
    pools = set()

    async def a_request() -> None:  # a new async context, as Django makes per request
        cache = a_cache()
        assert cache.get("shared") == 1
        pools.add(id(cache._cache._get_connection_pool(write=True)))

    for _ in range(5):
        asyncio.run(a_request())
    assert pools == {id(first._cache._get_connection_pool(write=True))}
