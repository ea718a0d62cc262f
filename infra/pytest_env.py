"""A pytest plugin (``-p infra.pytest_env`` in pyproject's addopts), loaded before
pytest-django imports the settings: with DATABASE_URL set (CI's PostgreSQL) DEBUG is off,
and the settings then refuse the development SECRET_KEY. The suite gets a long test-only
key and a fixed signing key (tests/conftest.py signs with the same one), which the
processes it starts (Celery workers, servers) inherit.

Under pytest-xdist (``run.py test`` runs a worker per core) each worker takes a Redis
database of its own: the channel layer's prefix (infra/channel_layer.py), the cache's
keys and Celery's queues all follow the URL's database, so one worker's tests never
hear another's groups or count against its rate limits. PostgreSQL needs nothing here:
pytest-django gives each worker a test database of its own."""

import os
from urllib.parse import urlparse

os.environ.setdefault("SECRET_KEY", "test-only-key-" + "k1ngd0m-t3st-" * 5)
os.environ.setdefault("SIGNING_KEY", "a2luZ2RvbS10ZXN0LXNpZ25pbmcta2V5LWZpeGVkLTA=")


def _worker_redis_url(url: str, worker: str) -> str:
    """``url`` on database (its own + the worker's number): gw0 keeps it, gw1 the next."""
    parsed = urlparse(url)
    database = int(parsed.path.strip("/") or "0") + int(worker.removeprefix("gw"))
    return parsed._replace(path=f"/{database}").geturl()


if (worker := os.environ.get("PYTEST_XDIST_WORKER")) and os.environ.get("REDIS_URL"):
    os.environ["REDIS_URL"] = _worker_redis_url(os.environ["REDIS_URL"], worker)
