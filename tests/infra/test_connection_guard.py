"""The suite's guard (tests/conftest.py): a connection that a test left in the middle of a
command, or a broken one before a test, is discarded and the test named, so the tests
after it on the worker still run."""

from __future__ import annotations

import pytest
from django.db import connection

from tests.conftest import discard_connections_mid_query, needs_postgres


class _Item:
    """What the guard needs of a pytest item: its id, and where its warnings go."""

    nodeid = "tests/example.py::test_left_a_query"

    def __init__(self) -> None:
        self.warnings: list[Warning] = []

    def warn(self, warning: Warning) -> None:
        self.warnings.append(warning)


@needs_postgres
@pytest.mark.django_db(transaction=True)
def test_a_connection_left_mid_command_is_discarded_and_the_test_named():
    from psycopg.pq import TransactionStatus

    connection.ensure_connection()
    raw = connection.connection
    # Sent through libpq and never read: what an abandoned command leaves behind.
    raw.pgconn.send_query(b"SELECT 1")
    assert raw.info.transaction_status == TransactionStatus.ACTIVE
    item = _Item()
    discard_connections_mid_query(item, "after")
    assert connection.connection is None
    assert [str(w) for w in item.warnings] == [
        "the database connection was mid-command after "
        "tests/example.py::test_left_a_query; discarded"
    ]
    with connection.cursor() as cursor:  # a fresh connection from the pool
        cursor.execute("SELECT 2")
        assert cursor.fetchone() == (2,)


@needs_postgres
@pytest.mark.django_db(transaction=True)
def test_an_idle_connection_is_left_alone():
    connection.ensure_connection()
    raw = connection.connection
    item = _Item()
    discard_connections_mid_query(item, "after")
    assert connection.connection is raw and item.warnings == []


@needs_postgres
@pytest.mark.django_db(transaction=True)
def test_a_broken_connection_is_discarded_before_a_test():
    connection.ensure_connection()
    connection.connection.pgconn.finish()  # its socket gone under it
    item = _Item()
    discard_connections_mid_query(item, "before")
    assert connection.connection is None
    assert "was broken before" in str(item.warnings[0])
    with connection.cursor() as cursor:
        cursor.execute("SELECT 3")
        assert cursor.fetchone() == (3,)
