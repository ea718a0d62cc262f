"""kingdom/ops/cache.py: every cache object of a process shares one Redis pool."""

from __future__ import annotations

import asyncio

from django.conf import settings

from kingdom.ops.cache import SharedPoolRedisCache
from tests.conftest import needs_redis


def a_cache() -> SharedPoolRedisCache:
    return SharedPoolRedisCache(settings.REDIS_URL, {"KEY_PREFIX": "test-cache"})


@needs_redis
def test_caches_made_per_request_share_one_client_and_its_connections():
    first, second = a_cache(), a_cache()
    assert first is not second
    assert first._cache is second._cache  # one client, so one pool
    first.set("shared", 1)
    assert second.get("shared") == 1
    pool = first._cache._get_connection_pool(write=True)
    made = pool._created_connections

    async def a_request() -> None:  # a new async context, as Django makes per request
        a_cache().get("shared")

    for _ in range(5):
        asyncio.run(a_request())
    assert pool._created_connections == made
