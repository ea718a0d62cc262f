"""The write path's statements, written once as SQL rather than built by the ORM on every
move (building them cost more CPU than everything else a move does in Python). They go
through Django's cursor, and psycopg prepares them on each connection
(``DB_PREPARE_THRESHOLD``). Rows become models through ``Model.from_db`` and each field's
own converters, as the ORM makes them.

- ``locking_read``: the game's row, locked, with its seats and their players, the hash of
  its head event and where a ``command_id`` was recorded: one statement;
- ``write``: the new events and the game's row moved to the new head: one statement on
  PostgreSQL (the INSERT rides in the UPDATE's WITH clause), two elsewhere.
"""

from __future__ import annotations

import uuid
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from django.contrib.auth import get_user_model
from django.db import connection, models

from games.models import Game, GameEvent, Seat


class Columns:
    """Some (default: all concrete) fields of ``model`` read under the table alias
    ``alias``, at a position in a row."""

    def __init__(
        self, model: type[models.Model], alias: str, names: list[str] | None = None
    ) -> None:
        self.model = model
        fields = list(model._meta.concrete_fields)
        if names is not None:  # in the model's order, as ``Model.from_db`` reads them
            fields = [f for f in fields if f.name in names or f.attname in names]
        self.fields = fields
        self.names = [f.attname for f in fields]
        quote = connection.ops.quote_name
        self.sql = [f"{alias}.{quote(f.column)}" for f in fields]
        self._converters = []
        for position, field in enumerate(fields):
            column = field.get_col(alias)
            found = connection.ops.get_db_converters(column) + field.get_db_converters(connection)
            if found:
                self._converters.append((position, found, column))

    def __len__(self) -> int:
        return len(self.fields)

    def make(self, row: tuple, start: int) -> Any:
        """The model instance from ``row[start:start + len(self)]``."""
        values = list(row[start : start + len(self.fields)])
        for position, functions, column in self._converters:
            for function in functions:
                values[position] = function(values[position], column, connection)
        return self.model.from_db(connection.alias, self.names, values)


@dataclass(frozen=True)
class LockingRead:
    game: Game
    seats: list[Seat]
    head_hash: str | None
    recorded_seq: int | None


class _LockingStatement:
    def __init__(self, for_update_of: bool) -> None:
        quote = connection.ops.quote_name
        users = get_user_model()
        self.game = Columns(Game, "g")
        self.seat = Columns(Seat, "s")
        self.user = Columns(users, "u", ["id", users.USERNAME_FIELD, "is_active"])
        self.seat_at = len(self.game)
        self.user_at = self.seat_at + len(self.seat)
        self.extra_at = self.user_at + len(self.user)
        events = quote(GameEvent._meta.db_table)
        columns = [*self.game.sql, *self.seat.sql, *self.user.sql]
        self.sql = (
            f"SELECT {', '.join(columns)}, "
            f"(SELECT e.hash FROM {events} e WHERE e.game_id = g.id AND e.seq = g.head_seq), "
            f"(SELECT e.seq FROM {events} e WHERE e.game_id = g.id AND e.command_id = %s) "
            f"FROM {quote(Game._meta.db_table)} g "
            f"LEFT JOIN {quote(Seat._meta.db_table)} s ON s.game_id = g.id "
            f"LEFT JOIN {quote(users._meta.db_table)} u ON u.id = s.user_id "
            f"WHERE g.id = %s ORDER BY s.number, s.joined_order"
            + (" FOR UPDATE OF g" if for_update_of else "")
        )


@lru_cache(maxsize=4)
def _locking_statement(vendor: str, for_update_of: bool) -> _LockingStatement:
    return _LockingStatement(for_update_of)


def locking_read(game_id: Any, command_id: uuid.UUID | None) -> LockingRead | None:
    """The game's row, locked, and what a command needs, in one statement (None: no such
    game). ``game_id`` may be any text; a value no game could have raises ValueError."""
    statement = _locking_statement(connection.vendor, connection.features.has_select_for_update_of)
    params = [
        GameEvent._meta.get_field("command_id").get_db_prep_value(command_id, connection),
        Game._meta.pk.get_db_prep_value(game_id, connection),
    ]
    with connection.cursor() as cursor:
        cursor.execute(statement.sql, params)
        rows = cursor.fetchall()
    if not rows:
        return None
    game = statement.game.make(rows[0], 0)
    seats = []
    for row in rows:
        if row[statement.seat_at] is None:  # a game without seats
            continue
        seat = statement.seat.make(row, statement.seat_at)
        seat.game = game
        if row[statement.user_at] is not None:
            seat.user = statement.user.make(row, statement.user_at)
        seats.append(seat)
    head_hash, recorded = rows[0][statement.extra_at], rows[0][statement.extra_at + 1]
    return LockingRead(game, seats, head_hash, recorded)


def write(rows: list[GameEvent], game: Game, changes: dict[str, Any]) -> None:
    """INSERT ``rows`` and UPDATE the game's row with ``changes``; the values go through
    each field's ``get_db_prep_save``, as the ORM's would."""
    fields, insert = _insert(connection.vendor, len(rows))
    update_fields, update = _update(connection.vendor, tuple(changes))
    insert_params = [
        f.get_db_prep_save(getattr(row, f.attname), connection) for row in rows for f in fields
    ]
    update_params = [f.get_db_prep_save(changes[f.name], connection) for f in update_fields]
    update_params.append(Game._meta.pk.get_db_prep_value(game.pk, connection))
    with connection.cursor() as cursor:
        if rows and connection.vendor == "postgresql":
            # A data-modifying WITH runs to completion whether or not the UPDATE reads it.
            cursor.execute(f"WITH appended AS ({insert}) {update}", insert_params + update_params)
        else:
            if rows:
                cursor.execute(insert, insert_params)
            cursor.execute(update, update_params)
    for row in rows:
        row._state.adding, row._state.db = False, connection.alias


@lru_cache(maxsize=32)
def _insert(vendor: str, count: int) -> tuple[list[models.Field], str]:
    quote = connection.ops.quote_name
    fields = [f for f in GameEvent._meta.concrete_fields if not f.primary_key]
    values = "(" + ", ".join(["%s"] * len(fields)) + ")"
    columns = ", ".join(quote(f.column) for f in fields)
    table = quote(GameEvent._meta.db_table)
    return fields, f"INSERT INTO {table} ({columns}) VALUES {', '.join([values] * count)}"


@lru_cache(maxsize=32)
def _update(vendor: str, names: tuple[str, ...]) -> tuple[list[models.Field], str]:
    quote = connection.ops.quote_name
    fields = [Game._meta.get_field(name) for name in names]
    assignments = ", ".join(f"{quote(f.column)} = %s" for f in fields)
    table, key = quote(Game._meta.db_table), quote(Game._meta.pk.column)
    return fields, f"UPDATE {table} SET {assignments} WHERE {key} = %s"
