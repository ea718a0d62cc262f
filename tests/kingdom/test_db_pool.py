"""The database connection pool (kingdom/settings.py): a process never holds
more connections than DB_POOL_SIZE, and a request that cannot get one in time answers a
JSON 503 ``busy`` with Retry-After, never a 500."""

from __future__ import annotations

import asyncio
import json
import os
import threading
import time

import psycopg
import pytest
from asgiref.sync import async_to_sync
from channels.testing import HttpCommunicator
from django.db import OperationalError, connections
from django.test import RequestFactory
from psycopg_pool import PoolTimeout

from games import selectors
from games.api import errors
from tests.conftest import needs_postgres
from tests.kingdom.test_settings import PRODUCTION, SETUP, run_django


def wrapped_pool_timeout() -> OperationalError:
    """A PoolTimeout as Django raises it: inside its own OperationalError."""
    try:
        try:
            raise PoolTimeout("couldn't get a connection after 5.00 sec")
        except PoolTimeout as exc:
            raise OperationalError(str(exc)) from exc
    except OperationalError as exc:
        return exc


def test_production_settings_pool_postgres_connections_by_db_pool_size():
    out = run_django(
        SETUP + "d = settings.DATABASES['default']; "
        "print(d['CONN_MAX_AGE'], d['CONN_HEALTH_CHECKS'], d['OPTIONS']['pool'])",
        DATABASE_URL="postgres://kingdom@db.example.org:5432/kingdom",
        DB_POOL_SIZE="6",
        DB_POOL_TIMEOUT="2.5",
        **PRODUCTION,
    )
    assert out.returncode == 0, out.stderr
    # No round trip as a connection leaves the pool (a move would pay it every time); a
    # PostgreSQL that is back is tried again within DB_RECONNECT_SECONDS
    # (docs/operations.md, "Faults and recovery").
    assert out.stdout.split(None, 2) == [
        "0",
        "False",
        "{'min_size': 1, 'max_size': 6, 'timeout': 2.5, 'reconnect_timeout': 2.0}\n",
    ]


def test_the_embedded_sqlite_database_has_no_pool():
    out = run_django(
        SETUP + "print(settings.DATABASES['default'].get('OPTIONS', {}))",
        DATABASE_URL="",
        **PRODUCTION,
    )
    assert out.returncode == 0, out.stderr
    assert "pool" not in out.stdout


@pytest.mark.django_db
def test_a_request_that_gets_no_connection_in_time_answers_a_json_503(api, monkeypatch):
    def exhausted(game_id):
        raise wrapped_pool_timeout()

    monkeypatch.setattr(selectors, "get_game", exhausted)
    response = api().get("/api/tables/00000000-0000-0000-0000-000000000000/")
    assert response.status_code == 503
    assert response.json()["code"] == "busy"
    assert response["Retry-After"] == str(errors.BUSY_RETRY_AFTER)


def test_outside_a_view_a_busy_pool_is_a_503_too_json_under_the_api():
    # handler500 runs while the exception (raised in a middleware, say) is handled.
    factory = RequestFactory()
    try:
        raise wrapped_pool_timeout()
    except OperationalError:
        api = errors.server_error_page(factory.get("/api/tables/"))
        page = errors.server_error_page(factory.get("/tables/"))
    assert api.status_code == page.status_code == 503
    assert api["Content-Type"] == "application/json"
    assert json.loads(api.content) == errors.BUSY
    assert api["Retry-After"] == page["Retry-After"] == str(errors.BUSY_RETRY_AFTER)
    # The server gone (a restart) is a 503 of its own kind; a bug stays a 500.
    try:
        raise OperationalError("server closed the connection unexpectedly")
    except OperationalError:
        down = errors.server_error_page(factory.get("/api/tables/"))
    assert down.status_code == 503
    assert json.loads(down.content)["code"] == "unavailable"
    try:
        raise ValueError("a bug")
    except ValueError:
        assert errors.server_error_page(factory.get("/api/tables/")).status_code == 500


# ---- on PostgreSQL: the real pool -----------------------------------------------------
# The connections of the re-opened pool carry this name, so the count is that pool's
# alone, not the production tests' cluster's (tests/production: two web processes and
# Celery on this test database, up until the session ends when those tests ran first).
POOL_APP_NAME = f"kingdom test pool {os.getpid()}"


@pytest.fixture
def pool_of(transactional_db):
    """Re-open the process's pool with another size and timeout for one test."""
    connection = connections["default"]
    options = connection.settings_dict["OPTIONS"]
    before = dict(options["pool"])

    def resize(size: int, timeout: float) -> None:
        connection.close()
        connection.close_pool()
        options["pool"] = {**before, "max_size": size, "timeout": timeout}
        options["application_name"] = POOL_APP_NAME

    yield resize
    connection.close()
    connection.close_pool()
    options["pool"] = before
    options.pop("application_name", None)


def connections_to_test_database() -> int:
    settings = connections["default"].settings_dict
    with psycopg.connect(
        host=settings["HOST"] or "127.0.0.1",
        port=settings["PORT"] or 5432,
        user=settings["USER"],
        dbname="postgres",
        autocommit=True,
    ) as watcher:
        row = watcher.execute(
            "SELECT count(*) FROM pg_stat_activity WHERE datname = %s AND application_name = %s",
            [settings["NAME"], POOL_APP_NAME],
        ).fetchone()
    return row[0]


async def get(path: str) -> dict:
    """GET through the ASGI server's Django handler (a thread per request, the request's
    connection given back when it ends, as daphne runs it)."""
    from django.core.asgi import get_asgi_application

    communicator = HttpCommunicator(
        get_asgi_application(), "GET", path, headers=[(b"host", b"testserver")]
    )
    response = await communicator.get_response(timeout=60)
    await communicator.wait(timeout=60)  # the handler's end: the connection given back
    return response


@needs_postgres
def test_many_concurrent_requests_never_hold_more_connections_than_the_pool(pool_of):
    pool_of(size=3, timeout=30)
    peak, watching = [0], threading.Event()

    def watch() -> None:
        while not watching.is_set():
            peak[0] = max(peak[0], connections_to_test_database())
            time.sleep(0.005)

    async def many() -> list[dict]:
        return await asyncio.gather(*(get("/api/tables/") for _ in range(24)))

    watcher = threading.Thread(target=watch)
    watcher.start()
    try:
        responses = async_to_sync(many)()
    finally:
        watching.set()
        watcher.join()
    assert [r["status"] for r in responses] == [200] * 24
    assert 1 <= peak[0] <= 3


@needs_postgres
def test_a_request_waiting_past_the_pool_timeout_answers_a_json_503_busy(pool_of):
    pool_of(size=1, timeout=0.2)
    holder = connections["default"]
    holder.ensure_connection()  # this thread holds the only connection
    response = async_to_sync(get)("/api/tables/")
    assert response["status"] == 503
    assert json.loads(response["body"]) == errors.BUSY
    assert (b"Retry-After", str(errors.BUSY_RETRY_AFTER).encode()) in response["headers"]
    holder.close()  # given back: the next request is served
    assert async_to_sync(get)("/api/tables/")["status"] == 200
