"""The write path's statements prepared once per PostgreSQL connection (games/prepared.py)."""

from __future__ import annotations

import pytest
from django.db import connection, transaction

from games import prepared
from tests.conftest import needs_postgres
from tests.games.test_round_trips import sent_to_postgres  # noqa: F401 (a fixture)

pytestmark = pytest.mark.django_db(transaction=True)

SQUARE = "SELECT %s::int * %s::int, %s::text"


def _run(sql: str, params: list) -> list[tuple]:
    with connection.cursor() as cursor:
        cursor.execute(prepared.execute_form(sql), params)
        return cursor.fetchall()


@needs_postgres
def test_a_statement_is_prepared_once_per_connection_and_gives_the_plain_rows(
    sent_to_postgres,  # noqa: F811
):
    connection.close()
    assert _run(SQUARE, [6, 7, "it's"]) == [(42, "it's")]
    assert _run(SQUARE, [3, 3, "again"]) == [(9, "again")]
    preparing = [sql for sql in sent_to_postgres if sql.startswith("PREPARE")]
    assert len(preparing) == 1 and "$1::int * $2::int, $3::text" in preparing[0]
    executes = [sql for sql in sent_to_postgres if sql.startswith("EXECUTE")]
    assert len(executes) == 2 and executes[0].endswith("(%s, %s, %s)")
    with connection.cursor() as cursor:
        cursor.execute(SQUARE, [6, 7, "it's"])
        assert cursor.fetchall() == _run(SQUARE, [6, 7, "it's"])


@needs_postgres
def test_a_new_connection_prepares_again(sent_to_postgres):  # noqa: F811
    _run(SQUARE, [1, 1, "a"])
    connection.close()
    connection.close_pool()  # the pool would hand the same session back
    sent_to_postgres.clear()
    assert _run(SQUARE, [2, 2, "b"]) == [(4, "b")]
    assert [sql.split()[0] for sql in sent_to_postgres if "kingdom_" in sql] == [
        "PREPARE",
        "EXECUTE",
    ]


@needs_postgres
def test_a_prepared_statement_outlives_a_rollback(sent_to_postgres):  # noqa: F811
    with pytest.raises(RuntimeError), transaction.atomic():
        _run(SQUARE, [5, 5, "x"])  # prepared inside a transaction that rolls back
        raise RuntimeError
    sent_to_postgres.clear()
    assert _run(SQUARE, [5, 5, "y"]) == [(25, "y")]
    assert not [sql for sql in sent_to_postgres if sql.startswith("PREPARE")]


def test_switched_off_or_on_sqlite_the_plain_statement_is_sent(settings):
    settings.DB_PREPARE_STATEMENTS = False
    assert prepared.execute_form(SQUARE) == SQUARE
    if connection.vendor != "postgresql":
        settings.DB_PREPARE_STATEMENTS = True
        assert prepared.execute_form(SQUARE) == SQUARE


@needs_postgres
def test_sql_with_a_literal_percent_sign_is_refused(settings):
    settings.DB_PREPARE_STATEMENTS = True
    with pytest.raises(ValueError):
        prepared.execute_form("SELECT 5 %% 3, %s")
