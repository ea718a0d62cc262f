"""The write path's first statement: lock the game's row and read what a command needs.

One round trip gives the game's row (locked), its seats with their players' names and
activity (whom the new head's updates are for: games/pushed_news.py), the hash of the
event at its head (the next event's ``prev_hash``), for a ``command_id`` the client
sent, where that id was recorded, and on PostgreSQL, when the process holds the game's
state a few events behind (another process wrote them), those events. The statement
never changes, so it is written once here rather than built by the ORM per move
(building it cost ~1.1 ms of CPU, more than everything else the write path does in
Python); games/rows.py makes the models from its rows.
"""

from __future__ import annotations

import uuid
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError
from django.db import connection

from games import prepared, store
from games.errors import NotFound
from games.models import Game, GameEvent, Seat
from games.rows import Columns


@dataclass(frozen=True)
class LockedGame:
    """The game's row, locked, and what a command needs, read in one round trip."""

    game: Game
    seats: list[Seat]  # each with its ``user`` (id, name, is_active) read too
    # The hash of the event at the head (None: read it at append, e.g. before the first).
    head_hash: str | None
    # The seq of the first event recorded under the command's command_id, if any.
    recorded_seq: int | None
    # The events after the seq the process holds the state at (None: not read here).
    caught_up: store.CaughtUp | None = None
    # Set when the row was not read at all (games/services/own_heads.py): the seats'
    # active players as the append must still find them, or write nothing.
    active_players: str | None = None


def lock_for_command(
    game_id: uuid.UUID | str, command_id: uuid.UUID | None, held_seq: int | None = None
) -> LockedGame:
    """Lock the game's row and read its seats, the hash of its head event, (given a
    ``command_id``) where that id was recorded and (given the ``held_seq`` this process
    holds the game's state at, on PostgreSQL) the events after it, in one statement.

    On PostgreSQL a statement that waited for the lock sees the newest version of the
    locked row but the seats and events as they were before the writer it waited for
    committed. Every writer that changes those also moves the head, so a head event it
    cannot see shows the wait: the read is repeated, under the lock, with a fresh view.
    """
    for _ in range(2):
        rows = _locking_read(game_id, command_id, held_seq)
        if not rows:
            raise NotFound("not_found", "No such table.")
        game, seats, head_hash, recorded, caught_up = rows
        if head_hash is not None or game.head_seq == 0:
            break
    return LockedGame(game, seats, head_hash, recorded, caught_up)


def _locking_read(
    game_id: uuid.UUID | str, command_id: uuid.UUID | None, held_seq: int | None
) -> tuple[Game, list[Seat], str | None, int | None, store.CaughtUp | None] | None:
    statement = _statement(connection.vendor, connection.features.has_select_for_update_of)
    catch_up = held_seq is not None and statement.can_catch_up
    try:
        params: list[Any] = [statement.game_id(game_id)]
        if catch_up:
            params.insert(0, held_seq)
        if command_id is not None:
            params.insert(0, statement.command_id(command_id))
    except (ValidationError, ValueError, TypeError, AttributeError) as exc:
        raise NotFound("not_found", "No such table.") from exc
    with connection.cursor() as cursor:
        cursor.execute(
            prepared.execute_form(statement.sql[command_id is not None, catch_up]), params
        )
        rows = cursor.fetchall()
    if not rows:
        return None
    first = rows[0]
    game = statement.game(first)
    seats = [statement.seat(row, game) for row in rows if row[statement.seat_at] is not None]
    caught_up = store.CaughtUp.from_json(held_seq, first[-1]) if catch_up else None
    return game, seats, first[statement.head_hash_at], first[statement.head_hash_at + 1], caught_up


class _Statement:
    """The locking read for one database vendor: its SQL and how to read its rows."""

    def __init__(self, vendor: str, lock_of: bool) -> None:
        quote = connection.ops.quote_name
        users = get_user_model()
        self.game_columns = Columns(Game, "g")
        self.seat_columns = Columns(Seat, "s")
        self.user_columns = Columns(users, "u", ["id", users.USERNAME_FIELD, "is_active"])
        self.seat_at = len(self.game_columns)  # the seat's id: NULL for a table without seats
        self.user_at = self.seat_at + len(self.seat_columns)  # NULL for a seat without a user
        events = quote(GameEvent._meta.db_table)
        columns = [*self.game_columns.sql, *self.seat_columns.sql, *self.user_columns.sql]
        self.head_hash_at = len(columns)  # then the recorded seq, then the caught-up events
        head_hash = f"(SELECT e.hash FROM {events} e WHERE e.game_id = g.id AND e.seq = g.head_seq)"
        recorded = f"(SELECT e.seq FROM {events} e WHERE e.game_id = g.id AND e.command_id = %s)"
        # PostgreSQL only: SQLite's JSON functions would need another statement, and a
        # SQLite service runs in one process, whose state is never behind.
        self.can_catch_up = vendor == "postgresql"
        caught_up = (
            "(SELECT json_agg(json_build_array(e.type, e.public, e.private) ORDER BY e.seq) "
            f"FROM {events} e WHERE e.game_id = g.id AND e.seq > %s AND e.seq <= g.head_seq)"
        )
        lock = " FOR UPDATE OF g" if lock_of else ""

        def select(*extra: str) -> str:
            return (
                f"SELECT {', '.join([*columns, head_hash, *extra])} "
                f"FROM {quote(Game._meta.db_table)} g "
                f"LEFT JOIN {quote(Seat._meta.db_table)} s ON s.game_id = g.id "
                f"LEFT JOIN {quote(users._meta.db_table)} u ON u.id = s.user_id "
                f"WHERE g.id = %s{lock}"
            )

        # By (a command_id to look for, events to catch up on).
        self.sql = {
            (False, False): select("NULL"),
            (True, False): select(recorded),
            (False, True): select("NULL", caught_up),
            (True, True): select(recorded, caught_up),
        }

    def game_id(self, value: Any) -> Any:
        return Game._meta.pk.get_db_prep_value(value, connection)

    def command_id(self, value: Any) -> Any:
        return GameEvent._meta.get_field("command_id").get_db_prep_value(value, connection)

    def game(self, row: tuple) -> Game:
        return self.game_columns.make(row, 0)

    def seat(self, row: tuple, game: Game) -> Seat:
        seat = self.seat_columns.make(row, self.seat_at)
        seat.game = game
        if row[self.user_at] is not None:
            seat.user = self.user_columns.make(row, self.user_at)
        return seat


@lru_cache(maxsize=8)
def _statement(vendor: str, lock_of: bool) -> _Statement:
    return _Statement(vendor, lock_of)
