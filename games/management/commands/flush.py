"""Django's ``flush``, let through the log's TRUNCATE guard on PostgreSQL.

The events and snapshots tables refuse TRUNCATE (games/migrations/0006) unless the
session sets ``kingdom.flush``. Flush empties every table at once, the whole database
and not one game's history, and the test suite runs it after every transactional test,
so it sets that for its own session only, and resets it after.
"""

from __future__ import annotations

from typing import Any

from django.core.management.commands import flush
from django.db import connections


class Command(flush.Command):
    def handle(self, **options: Any) -> None:
        connection = connections[options["database"]]
        if connection.vendor != "postgresql":
            return super().handle(**options)
        with connection.cursor() as cursor:
            cursor.execute("SELECT set_config('kingdom.flush', 'on', false)")
        try:
            return super().handle(**options)
        finally:
            with connection.cursor() as cursor:
                cursor.execute("RESET kingdom.flush")
