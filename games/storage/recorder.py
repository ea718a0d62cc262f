"""The recorder: a command's events written to the log by one statement, on the condition
that the game's head is still the one they were decided on.

After the eventsourcing library's ``PostgresRecorder`` (its ``insert_events``): it knows
nothing of rules, takes plain values, speaks SQL through Django's cursor and answers
"recorded" or says who was first:

- ``HeadMoved``: the game's row no longer matches what the command was decided on (another
  writer moved the head, the game is no longer in the status decided on, or the acting
  account was deactivated); the writer catches up and decides again;
- ``CommandRecorded``: the ``command_id`` is already in this game's log (a retry).

On PostgreSQL the statement is the game row's conditional UPDATE with the events' INSERT
(and a checkpoint's, when one is due) riding in its WITH clause, in autocommit: the UPDATE
matches no row when the head moved, so nothing is inserted; a unique ``(game, seq)`` or
``(game, command_id)`` makes a racing write fail whole. Under READ COMMITTED a writer
whose UPDATE waited for another's re-checks the condition against the committed row
(PostgreSQL's documented behaviour for UPDATE), so two writers never both pass.

SQLite (the embedded default) has no data-modifying WITH: the UPDATE and the INSERTs run
in one short transaction, whose BEGIN IMMEDIATE (``transaction_mode`` in the settings)
takes the database's write lock.
"""

from __future__ import annotations

import json
import uuid
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from django.contrib.auth import get_user_model
from django.db import IntegrityError, connection, transaction

GAMES, EVENTS, SNAPSHOTS = "games_game", "games_gameevent", "games_snapshot"
EVENT_COLUMNS = (
    "seq",
    "type",
    "public",
    "private",
    "actor",
    "command_id",
    "command",
    "recorded_at",
    "prev_hash",
    "hash",
)
CHECKPOINT_COLUMNS = ("seq", "state", "created_at", "head_hash", "key_id", "signature")
# PostgreSQL's types for the values that are not text, as the models' columns have them.
_PG_TYPES = {
    "seq": "integer",
    "public": "jsonb",
    "private": "jsonb",
    "command_id": "uuid",
    "command": "jsonb",
    "recorded_at": "timestamptz",
    "head_seq": "integer",
    "outcome": "jsonb",
    "clock_deadline": "timestamptz",
    "finished_at": "timestamptz",
    "started_at": "timestamptz",
    "bots_due_at": "timestamptz",
    "bots_sends": "smallint",
    "seats_wanted": "smallint",
    "state": "jsonb",
    "created_at": "timestamptz",
}
_JSON = {"public", "private", "command", "outcome", "state"}


class HeadMoved(Exception):
    """The game's row did not match the condition: nothing was recorded."""


class CommandRecorded(Exception):
    """This ``command_id`` is already in the game's log at ``seq``: nothing was recorded."""

    def __init__(self, seq: int) -> None:
        super().__init__(seq)
        self.seq = seq


@dataclass(frozen=True)
class EventRecord:
    """One row of the log, as plain values (``public``/``private``/``command`` JSON-ready)."""

    seq: int
    type: str
    public: dict[str, Any]
    private: dict[str, Any]
    actor: str
    command_id: uuid.UUID | None
    command: dict[str, Any] | None
    recorded_at: datetime
    prev_hash: str
    hash: str


@dataclass(frozen=True)
class Checkpoint:
    """A snapshot of the state after ``seq`` with the deployment's signature of the head."""

    seq: int
    state: dict[str, Any]
    head_hash: str
    key_id: str
    signature: str
    created_at: datetime


@dataclass(frozen=True)
class Condition:
    """What the game's row must still be for the write to stand: its head ``head`` and
    status ``status``; with ``account_id``, that account must still be active."""

    head: int
    status: str
    account_id: int | None = None


def record(
    game_id: uuid.UUID,
    condition: Condition,
    events: Sequence[EventRecord],
    changes: dict[str, Any],
    checkpoint: Checkpoint | None = None,
) -> set[int]:
    """Insert ``events`` and set the game row's ``changes`` (``head_seq`` among them) if the
    row still meets ``condition``. Raises ``HeadMoved`` or ``CommandRecorded``.

    Returns the ids of the game's seated accounts that are deactivated, as the statement
    found them: who sees a seat's secrets at the new head (the one redaction rule)."""
    assert events and "head_seq" in changes, "a write appends events and moves the head"
    try:
        if connection.vendor == "postgresql":
            if connection.in_atomic_block:
                # Inside a caller's transaction a failed statement would end it: a
                # savepoint keeps the failure to this write.
                with transaction.atomic():
                    inserted = _record_pg(game_id, condition, events, changes, checkpoint)
            else:  # autocommit: the statement is its own transaction
                inserted = _record_pg(game_id, condition, events, changes, checkpoint)
        else:
            with transaction.atomic():
                inserted = _record_in_steps(game_id, condition, events, changes, checkpoint)
    except IntegrityError:
        command_id = events[0].command_id
        seq = recorded_seq(game_id, command_id) if command_id is not None else None
        if seq is not None:
            raise CommandRecorded(seq) from None
        raise HeadMoved() from None
    if inserted is None:
        raise HeadMoved()
    return inserted


def recorded_seq(game_id: uuid.UUID, command_id: uuid.UUID) -> int | None:
    """The seq at which ``command_id`` was recorded in the game's log, if it was."""
    with connection.cursor() as cursor:
        cursor.execute(
            f"SELECT seq FROM {EVENTS} WHERE game_id = %s AND command_id = %s",
            [_value("id", game_id), _value("command_id", command_id)],
        )
        row = cursor.fetchone()
    return row[0] if row else None


def head_of(game_id: uuid.UUID) -> tuple[int, str] | None:
    """The game's head seq and status as the database has them now (None: no such game)."""
    with connection.cursor() as cursor:
        cursor.execute(
            f"SELECT head_seq, status FROM {GAMES} WHERE id = %s", [_value("id", game_id)]
        )
        row = cursor.fetchone()
    return (row[0], row[1]) if row else None


def _record_pg(
    game_id: uuid.UUID,
    condition: Condition,
    events: Sequence[EventRecord],
    changes: dict[str, Any],
    checkpoint: Checkpoint | None,
) -> set[int] | None:
    update, params = _update(game_id, condition, changes)
    sql = f"WITH moved AS ({update} RETURNING id, {_inactive_accounts()} AS inactive)"
    if checkpoint is not None:
        columns = CHECKPOINT_COLUMNS
        sql += (
            f", checkpoint AS (INSERT INTO {SNAPSHOTS} (game_id, {', '.join(columns)}) "
            f"SELECT id, {', '.join(_placeholder(c) for c in columns)} FROM moved)"
        )
        params += [_value(c, getattr(checkpoint, c)) for c in columns]
    row = "(" + ", ".join(_placeholder(c) for c in EVENT_COLUMNS) + ")"
    sql += (
        f", appended AS (INSERT INTO {EVENTS} (game_id, {', '.join(EVENT_COLUMNS)}) "
        f"SELECT moved.id, v.* FROM moved, (VALUES {', '.join([row] * len(events))}) "
        f"AS v ({', '.join(EVENT_COLUMNS)}) RETURNING seq) "
        "SELECT (SELECT count(*) FROM appended), inactive FROM moved"
    )
    params += [_value(c, getattr(e, c)) for e in events for c in EVENT_COLUMNS]
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        found = cursor.fetchone()
    if found is None or found[0] != len(events):
        return None
    return set(found[1])


def _record_in_steps(
    game_id: uuid.UUID,
    condition: Condition,
    events: Sequence[EventRecord],
    changes: dict[str, Any],
    checkpoint: Checkpoint | None,
) -> set[int] | None:
    update, params = _update(game_id, condition, changes)
    game = _value("id", game_id)
    with connection.cursor() as cursor:
        cursor.execute(f"{update} RETURNING {_inactive_accounts()}", params)
        found = cursor.fetchone()
        if found is None:
            return None
        row = "(" + ", ".join(["%s"] * (len(EVENT_COLUMNS) + 1)) + ")"
        cursor.execute(
            f"INSERT INTO {EVENTS} (game_id, {', '.join(EVENT_COLUMNS)}) "
            f"VALUES {', '.join([row] * len(events))}",
            [v for e in events for v in (game, *(_value(c, getattr(e, c)) for c in EVENT_COLUMNS))],
        )
        if checkpoint is not None:
            columns = CHECKPOINT_COLUMNS
            cursor.execute(
                f"INSERT INTO {SNAPSHOTS} (game_id, {', '.join(columns)}) "
                f"VALUES (%s, {', '.join(['%s'] * len(columns))})",
                [game, *(_value(c, getattr(checkpoint, c)) for c in columns)],
            )
    return {int(i) for i in found[0].split(",")} if found[0] else set()


def _inactive_accounts() -> str:
    """The game's seated accounts that are deactivated, as an expression of the UPDATE's
    RETURNING: an array on PostgreSQL, comma-separated ids on SQLite."""
    users = get_user_model()._meta.db_table
    pg = connection.vendor == "postgresql"
    return (
        f"{'ARRAY' if pg else ''}(SELECT {'s.user_id' if pg else 'group_concat(s.user_id)'} "
        f"FROM games_seat s JOIN {users} u ON u.id = s.user_id "
        f"WHERE s.game_id = {GAMES}.id AND NOT u.is_active)"
    )


def _update(
    game_id: uuid.UUID, condition: Condition, changes: dict[str, Any]
) -> tuple[str, list[Any]]:
    names = sorted(changes)
    sql = (
        f"UPDATE {GAMES} SET {', '.join(f'{n} = {_placeholder(n)}' for n in names)} "
        "WHERE id = %s AND head_seq = %s AND status = %s"
    )
    params = [_value(n, changes[n]) for n in names]
    params += [_value("id", game_id), condition.head, condition.status]
    if condition.account_id is not None:
        users = get_user_model()._meta.db_table
        sql += f" AND EXISTS (SELECT 1 FROM {users} WHERE id = %s AND is_active)"
        params.append(condition.account_id)
    return sql, params


def _placeholder(column: str) -> str:
    kind = _PG_TYPES.get(column) if connection.vendor == "postgresql" else None
    return f"%s::{kind}" if kind else "%s"


def _value(column: str, value: Any) -> Any:
    """``value`` as the driver takes it for ``column``: JSON as text; on SQLite, as
    Django's SQLite backend stores them, UUIDs as 32 hex digits and datetimes as naive UTC
    text."""
    if value is None:
        return None
    if column == "id" and not isinstance(value, uuid.UUID):
        value = uuid.UUID(str(value))  # ValueError for text no game could have
    if column in _JSON:
        return json.dumps(value, separators=(",", ":"))
    if connection.vendor == "postgresql":
        return value
    if isinstance(value, uuid.UUID):
        return value.hex
    if isinstance(value, datetime):
        return str(value.astimezone(UTC).replace(tzinfo=None))
    return value
