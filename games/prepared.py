"""The hot paths' statements prepared once per PostgreSQL connection: the write path's
locking read and append, the token lookup, and the fan-out's reads of a head.

Django binds parameters on the client, so PostgreSQL parses and plans every statement
it is sent. The locking read (a join with three subqueries) spent longer being planned
(~0.2 ms) than being executed (~0.1 ms), on every move. ``execute_form`` prepares a
statement the first time a connection sends it (``PREPARE``, one round trip in the
connection's life) and from then on sends ``EXECUTE name(args)``: still one statement
through Django's cursor, so it can travel with BEGIN or COMMIT (games/round_trips.py).

A prepared statement lives as long as its connection's session, and survives a rollback.
Django's pool does not reset sessions; behind a proxy that does (PgBouncer in
transaction mode), or without the pool, ``DB_PREPARE_STATEMENTS`` is off and the plain
statements are sent.
"""

from __future__ import annotations

import hashlib
import re
from functools import lru_cache
from weakref import WeakKeyDictionary

from django.conf import settings
from django.db import connection

# The statements each open PostgreSQL connection (psycopg's object) has prepared.
_prepared: WeakKeyDictionary = WeakKeyDictionary()
_PLACEHOLDER = re.compile(r"%s")


@lru_cache(maxsize=64)
def _shape(sql: str) -> tuple[str, str, str]:
    """The statement's name, its PREPARE and its EXECUTE (``%s`` for each argument)."""
    if "%%" in sql:
        raise ValueError("a prepared statement's SQL has no literal percent signs")
    name = "kingdom_" + hashlib.sha1(sql.encode()).hexdigest()[:20]
    count = 0

    def numbered(_: re.Match) -> str:
        nonlocal count
        count += 1
        return f"${count}"

    body = _PLACEHOLDER.sub(numbered, sql)
    arguments = f"({', '.join(['%s'] * count)})" if count else ""
    return name, f"PREPARE {name} AS {body}", f"EXECUTE {name}{arguments}"


def execute_form(sql: str) -> str:
    """What to send for ``sql`` (with ``%s`` placeholders, the same parameters): on
    PostgreSQL the EXECUTE of a statement this connection has prepared (preparing it
    now if it has not); elsewhere ``sql`` itself."""
    if connection.vendor != "postgresql" or not settings.DB_PREPARE_STATEMENTS:
        return sql
    name, prepare, execute = _shape(sql)
    connection.ensure_connection()
    names = _prepared.setdefault(connection.connection, set())
    if name not in names:
        with connection.cursor() as cursor:
            cursor.execute(prepare)
        names.add(name)
    return execute
