"""An attacker with the database owner's rights: the append-only triggers switched off."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from django.db import connection

from tests.conftest import ON_POSTGRES


@contextmanager
def triggers_disabled(*tables: str) -> Iterator[None]:
    """Inside the block, rows of ``tables`` may be updated and deleted (SQLite has no
    triggers: nothing to switch off there)."""
    if ON_POSTGRES:
        with connection.cursor() as cursor:
            for table in tables:
                cursor.execute(f"ALTER TABLE {table} DISABLE TRIGGER USER")
    try:
        yield
    finally:
        if ON_POSTGRES:
            with connection.cursor() as cursor:
                for table in tables:
                    cursor.execute(f"ALTER TABLE {table} ENABLE TRIGGER USER")
