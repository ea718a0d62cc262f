"""Shared fixtures. Tests that need PostgreSQL or Redis run whenever their URL is set."""

from __future__ import annotations

import os
import uuid

import pytest
from django.contrib.auth import get_user_model

from games.storage import heads

ON_POSTGRES = os.environ.get("DATABASE_URL", "").startswith(("postgres", "postgresql"))
HAS_REDIS = bool(os.environ.get("REDIS_URL"))
needs_postgres = pytest.mark.skipif(not ON_POSTGRES, reason="needs DATABASE_URL (PostgreSQL)")
needs_redis = pytest.mark.skipif(not HAS_REDIS, reason="needs REDIS_URL")
# Tests sign checkpoints with this fixed Ed25519 key (base64 of 32 raw bytes), never with
# a key file of the worktree; processes the tests start (a Celery worker) inherit it.
TEST_SIGNING_KEY = "a2luZ2RvbS10ZXN0LXNpZ25pbmcta2V5LWZpeGVkLTA="
os.environ["SIGNING_KEY"] = TEST_SIGNING_KEY


def pytest_configure(config) -> None:
    from django.conf import settings

    settings.SIGNING_KEY = TEST_SIGNING_KEY


def discard_connections_mid_query(item: pytest.Item, when: str) -> None:
    """A connection of this thread left in the middle of a command (psycopg's ACTIVE), or
    before a test one that can run nothing (Django's ``is_usable``: its socket was seen
    closed under it, "Bad file descriptor", cause not found), would fail every later test
    on this worker ("another command is already in progress"). It goes back to the pool,
    which closes such a connection, and the test is named in a warning."""
    if not ON_POSTGRES:
        return
    import gc

    from django.db import connections
    from psycopg.pq import TransactionStatus

    if when == "before":
        # The socket was seen closed during a test's setup, right after this check passed,
        # as if a finalizer closed a descriptor number the connection had reused: collect
        # now, so such a close happens before the check and not inside the test.
        gc.collect()

    for connection in connections.all(initialized_only=True):
        raw = connection.connection
        if raw is None:
            continue
        if raw.info.transaction_status == TransactionStatus.ACTIVE:
            state = "mid-command"
        elif when == "before" and not connection.in_atomic_block and not connection.is_usable():
            state = "broken"
        else:
            continue
        connection.close()
        item.warn(
            pytest.PytestWarning(
                f"the database connection was {state} {when} {item.nodeid}; discarded"
            )
        )


@pytest.hookimpl(tryfirst=True)
def pytest_runtest_setup(item: pytest.Item) -> None:
    discard_connections_mid_query(item, "before")


@pytest.hookimpl(tryfirst=True)
def pytest_runtest_teardown(item: pytest.Item) -> None:
    # Before the fixtures' teardown: a transactional test's flush needs the connection.
    discard_connections_mid_query(item, "after")


@pytest.fixture(autouse=True)
def _embedded_defaults(settings):
    """Bot turns inline (no threads, no broker) and no pause between bot moves; a fast
    password hasher (the real one costs ~0.2 s per user on purpose, which the hundreds of
    users the tests create would pay for nothing)."""
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    settings.BOT_RUNNER = "inline"
    settings.BOT_MOVE_DELAY = 0
    settings.CHANNEL_LAYERS = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}
    # Each test counts rate limits and keeps WebSocket tickets in its own part of the cache
    # (on Redis, nothing from an earlier test or run is seen).
    settings.CACHES = {
        "default": {**settings.CACHES["default"], "KEY_PREFIX": f"test-{uuid.uuid4().hex}"}
    }
    heads.clear()
    yield
    heads.clear()


@pytest.fixture
def make_user(db):
    def make(name: str = "ana", staff: bool = False):
        return get_user_model().objects.create_user(
            username=name, password="pw-123456789", is_staff=staff
        )

    return make


@pytest.fixture
def api(make_user):
    """An API client logged in as a fresh user (``api.user``)."""
    from rest_framework.test import APIClient

    def client_for(name: str = "ana", staff: bool = False) -> APIClient:
        client = APIClient()
        client.user = make_user(name, staff)
        client.force_authenticate(client.user)
        return client

    return client_for
