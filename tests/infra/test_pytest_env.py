"""The test run's environment (infra/pytest_env.py): each pytest-xdist worker on a Redis
database of its own, so workers' channel-layer groups and rate limits never meet."""

from __future__ import annotations

from infra.pytest_env import _worker_redis_url


def test_each_worker_takes_the_next_redis_database():
    assert _worker_redis_url("redis://127.0.0.1:6379/0", "gw0") == "redis://127.0.0.1:6379/0"
    assert _worker_redis_url("redis://127.0.0.1:6379/0", "gw1") == "redis://127.0.0.1:6379/1"
    assert _worker_redis_url("redis://h:6379", "gw2") == "redis://h:6379/2"
    assert _worker_redis_url("redis://:pw@h:6379/4", "gw1") == "redis://:pw@h:6379/5"
