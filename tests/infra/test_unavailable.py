"""PostgreSQL or Redis not answering is a JSON 503 with Retry-After under /api/, an HTML
503 elsewhere; a busy pool stays ``busy`` and other errors stay 500."""

from __future__ import annotations

import pytest
from django.db import OperationalError
from django.test import Client
from psycopg_pool import PoolTimeout
from redis.exceptions import ConnectionError as RedisConnectionError

from games.api.errors import json_error_handler
from infra.unavailable import dependency_down

pytestmark = pytest.mark.django_db


def test_what_counts_as_a_dependency_down():
    try:
        try:
            raise OSError("connection refused")
        except OSError as exc:
            raise OperationalError("the server closed the connection") from exc
    except OperationalError as wrapped:
        assert dependency_down(wrapped)
    assert dependency_down(RedisConnectionError("Error 111 connecting"))
    assert not dependency_down(ValueError("a bug"))
    assert not dependency_down(None)


def test_the_api_answers_a_database_down_as_unavailable():
    response = json_error_handler(OperationalError("connection refused"), {})
    assert response.status_code == 503
    assert response.data["code"] == "unavailable"
    assert int(response.headers["Retry-After"]) > 0


def test_a_busy_pool_is_still_busy():
    wrapped = OperationalError("no connection")
    wrapped.__cause__ = PoolTimeout("couldn't get a connection after 5.00 sec")
    assert json_error_handler(wrapped, {}).data["code"] == "busy"


def _refused(*args, **kwargs):
    raise OperationalError("could not connect to server: Connection refused")


def test_an_api_view_that_finds_the_database_down_answers_json_503(monkeypatch):
    from django.urls import resolve

    monkeypatch.setattr(resolve("/api/rulesets/").func.cls, "get", _refused)
    response = Client(raise_request_exception=False).get("/api/rulesets/")
    assert response.status_code == 503
    assert int(response["Retry-After"]) > 0
    assert response.json()["code"] == "unavailable"


def test_a_page_that_finds_the_database_down_answers_503(monkeypatch):
    from players import selectors

    monkeypatch.setattr(selectors, "leaderboards", _refused)
    response = Client(raise_request_exception=False).get("/leaderboard/")
    assert response.status_code == 503
    assert int(response["Retry-After"]) > 0
