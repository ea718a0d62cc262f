"""A pytest plugin (``-p infra.pytest_env`` in pyproject's addopts), loaded before
pytest-django imports the settings: with DATABASE_URL set (CI's PostgreSQL) DEBUG is off,
and the settings then refuse the development SECRET_KEY. The suite gets a long test-only
key and a fixed signing key (tests/conftest.py signs with the same one), which the
processes it starts (Celery workers, servers) inherit."""

import os

os.environ.setdefault("SECRET_KEY", "test-only-key-" + "k1ngd0m-t3st-" * 5)
os.environ.setdefault("SIGNING_KEY", "a2luZ2RvbS10ZXN0LXNpZ25pbmcta2V5LWZpeGVkLTA=")
