"""The event store: load a game's table state, append events under its lock, hash chain.

Loading never replays a whole long game per command: the process keeps the state at the
head seq of recently used games (bringing it up by the few events another process wrote
since), and otherwise starts from the latest snapshot. A
snapshot is written every ``SNAPSHOT_EVERY`` events and when the game ends, each with the
server's signature of the log's head there (a checkpoint, games/signing.py).
"""

from __future__ import annotations

import json
import threading
import uuid
from collections import OrderedDict
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import datetime
from functools import lru_cache
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import connection, transaction
from django.db.models import Field
from django.utils import timezone

from games import prepared, round_trips, signing
from games import table as tables
from games.chain import GENESIS, record_hash
from games.models import Game, GameEvent, Seat, Snapshot
from games.rows import Columns
from games.rules import get_ruleset
from games.rules.base import Event, Ruleset

CACHE_SIZE = 256


class _StateCache:
    """Per-process LRU of (head seq, table state) per game; thread-safe."""

    def __init__(self, size: int) -> None:
        self._size = size
        self._entries: OrderedDict[uuid.UUID, tuple[int, tables.TableState]] = OrderedDict()
        self._lock = threading.Lock()

    def take(self, game_id: uuid.UUID, seq: int) -> tables.TableState | None:
        """Remove and return the state at ``seq``: the caller now owns (and may mutate) it."""
        with self._lock:
            entry = self._entries.get(game_id)
            if entry is None or entry[0] != seq:
                return None
            del self._entries[game_id]
            return entry[1]

    def held_seq(self, game_id: uuid.UUID | str) -> int | None:
        """The seq of the state held for the game, if any (it stays held)."""
        try:
            key = game_id if isinstance(game_id, uuid.UUID) else uuid.UUID(str(game_id))
        except ValueError:
            return None
        with self._lock:
            entry = self._entries.get(key)
            return entry[0] if entry else None

    def take_behind(self, game_id: uuid.UUID, seq: int) -> tuple[int, tables.TableState] | None:
        """Remove and return the state held at ``seq`` or before it, with its seq."""
        with self._lock:
            entry = self._entries.get(game_id)
            if entry is None or entry[0] > seq:
                return None
            del self._entries[game_id]
            return entry

    def put(self, game_id: uuid.UUID, seq: int, table: tables.TableState) -> None:
        with self._lock:
            current = self._entries.get(game_id)
            if current and current[0] > seq:
                return
            self._entries[game_id] = (seq, table)
            self._entries.move_to_end(game_id)
            while len(self._entries) > self._size:
                self._entries.popitem(last=False)

    def clear(self) -> None:
        with self._lock:
            self._entries.clear()


state_cache = _StateCache(CACHE_SIZE)


def to_event(row: GameEvent) -> Event:
    private = {int(seat): data for seat, data in row.private.items()}
    return Event(row.type, row.public, private)


def record_of(row: GameEvent) -> dict[str, Any]:
    """The stored form that the hash covers (also the export format)."""
    return {
        "game": str(row.game_id),
        "seq": row.seq,
        "type": row.type,
        "public": row.public,
        "private": row.private,
        "actor": row.actor,
        "command_id": str(row.command_id) if row.command_id else None,
        "command": row.command,
        "recorded_at": row.recorded_at.isoformat(),
        "prev_hash": row.prev_hash,
        "hash": row.hash,
    }


def replay(game: Game, upto: int | None = None) -> tables.TableState:
    """The full fold from the first event (audits and tests; never on the write path)."""
    ruleset = get_ruleset(game.ruleset)
    rows = GameEvent.objects.filter(game=game).order_by("seq")
    if upto is not None:
        rows = rows.filter(seq__lte=upto)
    return tables.fold(ruleset, [to_event(r) for r in rows.iterator()])


def _load_from_snapshot(game: Game, ruleset: Ruleset) -> tables.TableState:
    # Both reads are prepared statements: a process loads each game it serves cold (its
    # first socket, its first move there), and building the two ORM queries cost ~3x
    # running them (py-spy, bench live on the socket).
    snapshot = latest_snapshot(game)
    table = tables.load(ruleset, snapshot.state) if snapshot else None
    after = snapshot.seq if snapshot else 0
    for row in events_between(game, after, game.head_seq):
        table = tables.apply(ruleset, table, to_event(row))
    assert table is not None
    return table


def latest_snapshot(game: Game) -> Snapshot | None:
    """The game's latest snapshot at or before its head (its ``seq`` and ``state``)."""
    columns, sql = _snapshot_statement(connection.vendor)
    key = Game._meta.pk.get_db_prep_value(game.pk, connection)
    with connection.cursor() as cursor:
        cursor.execute(prepared.execute_form(sql), [key, game.head_seq])
        row = cursor.fetchone()
    return None if row is None else columns.make(row, 0)


@lru_cache(maxsize=4)
def _snapshot_statement(vendor: str) -> tuple[Columns, str]:
    columns = Columns(Snapshot, "s", ["id", "seq", "state"])
    table = connection.ops.quote_name(Snapshot._meta.db_table)
    sql = (
        f"SELECT {', '.join(columns.sql)} FROM {table} s "
        "WHERE s.game_id = %s AND s.seq <= %s ORDER BY s.seq DESC LIMIT 1"
    )
    return columns, sql


def load_table(game: Game, caught_up: CaughtUp | None = None) -> tables.TableState:
    """A table state at ``game.head_seq`` that the caller owns and may mutate.

    A state the process holds a few events behind the head (another process wrote them:
    players of one table often reach different processes) is brought up by folding
    those events rather than reloaded from the snapshot: ``caught_up`` when the caller
    read them already (the write path's locking read), else read in one statement."""
    ruleset = get_ruleset(game.ruleset)
    held = state_cache.take_behind(game.id, game.head_seq)
    if held is not None:
        seq, table = held
        if seq == game.head_seq:
            return table
        if game.head_seq - seq <= settings.SNAPSHOT_EVERY:
            if caught_up is not None and caught_up.upto(seq, game.head_seq):
                events = caught_up.events
            else:
                events = [to_event(row) for row in events_between(game, seq, game.head_seq)]
            for event in events:
                table = tables.apply(ruleset, table, event)
            return table
    return _load_from_snapshot(game, ruleset)


@dataclass(frozen=True)
class CaughtUp:
    """The events after ``after`` up to the head, read with the game's row lock."""

    after: int
    events: list[Event]

    def upto(self, seq: int, head: int) -> bool:
        """True when these are exactly the events from ``seq`` to ``head``."""
        return self.after == seq and len(self.events) == head - seq

    @classmethod
    def from_json(cls, after: int, value: Any) -> CaughtUp:
        """From ``[[type, public, private], ...]`` in seq order, as psycopg loads a
        ``json_agg`` (None: no events)."""
        items = value or []
        return cls(
            after,
            [
                Event(kind, public, {int(seat): data for seat, data in private.items()})
                for kind, public, private in items
            ],
        )


def events_between(game: Game, after: int, upto: int, limit: int | None = None) -> list[GameEvent]:
    """The events after seq ``after`` up to ``upto`` (at most ``limit``), in order, from
    a statement written once (games/rows.py): the hot paths' read of new events."""
    columns, sql = _events_statement(connection.vendor)
    if limit is not None:  # a constant of the caller's: one more prepared statement
        sql = f"{sql} LIMIT {int(limit)}"
    key = Game._meta.pk.get_db_prep_value(game.pk, connection)
    with connection.cursor() as cursor:
        cursor.execute(prepared.execute_form(sql), [key, after, upto])
        rows = cursor.fetchall()
    events = [columns.make(row, 0) for row in rows]
    for event in events:
        event.game = game
    return events


@lru_cache(maxsize=4)
def _events_statement(vendor: str) -> tuple[Columns, str]:
    columns = Columns(GameEvent, "e")
    table = connection.ops.quote_name(GameEvent._meta.db_table)
    sql = (
        f"SELECT {', '.join(columns.sql)} FROM {table} e "
        "WHERE e.game_id = %s AND e.seq > %s AND e.seq <= %s ORDER BY e.seq"
    )
    return columns, sql


@contextmanager
def reading(game: Game) -> Iterator[tables.TableState]:
    """The table state at ``game.head_seq`` to read inside the block.

    The state is taken out of the cache while it is read, so a writer in another thread
    never mutates it under the reader (the writer then loads from the latest snapshot).
    """
    table = load_table(game)
    try:
        yield table
    finally:
        state_cache.put(game.id, game.head_seq, table)


@dataclass(frozen=True)
class Actor:
    """Who caused a batch of events: ``seat:N``, ``bot:N``, ``system`` or ``staff:name``."""

    label: str
    seat: int | None = None


def append(
    game: Game,
    events: list[Event],
    *,
    actor: Actor,
    command: dict[str, Any] | None,
    command_id: uuid.UUID | None,
    table_after: tables.TableState,
    now: datetime | None = None,
    prev_hash: str | None = None,
    row_changes: dict[str, Any] | None = None,
    active_players: str | None = None,
) -> list[GameEvent]:
    """Append ``events`` after the head in one INSERT, and move the head in one UPDATE of
    the game's row (with ``row_changes``, other fields of the row). The caller holds the
    game's row lock; ``prev_hash`` is the head event's hash if it read it with the lock.

    ``active_players`` (PostgreSQL): the caller did not lock the row but builds on a head
    its process wrote (games/services/own_heads.py). The insert of the next seq is the
    check that the head has not moved; the UPDATE also checks that the seats' active
    players are still these, and fails (an IntegrityError) if not."""
    assert transaction.get_connection().in_atomic_block, "append needs a transaction"
    now = now or timezone.now()
    prev = prev_hash if prev_hash is not None else _head_hash(game)
    rows = []
    for offset, event in enumerate(events):
        first = offset == 0
        row = GameEvent(
            game=game,
            seq=game.head_seq + offset + 1,
            type=event.type,
            public=jsonable(event.public),
            private=jsonable({str(seat): data for seat, data in event.private.items()}),
            actor=actor.label,
            command_id=command_id if first else None,
            command=jsonable(command) if first else None,
            recorded_at=now,
            prev_hash=prev,
        )
        row.hash = record_hash(record_of(row))
        prev = row.hash
        rows.append(row)
    old_head = game.head_seq
    game.head_seq += len(rows)
    _write_rows(rows, game, {"head_seq": game.head_seq, **(row_changes or {})}, active_players)
    ruleset = get_ruleset(game.ruleset)
    periodic = game.head_seq // settings.SNAPSHOT_EVERY > old_head // settings.SNAPSHOT_EVERY
    # A game that ends keeps its final state too, so an audit can check that replaying
    # the log gives exactly the state the game ended in, not only its outcome.
    if periodic or table_after.over:
        # Every snapshot is a signed checkpoint of the log's head (games/signing.py).
        head_hash = prev  # the hash of the last event appended
        point = signing.sign_checkpoint(str(game.id), game.head_seq, head_hash)
        Snapshot.objects.create(
            game=game,
            seq=game.head_seq,
            state=tables.dump(ruleset, table_after),
            head_hash=head_hash,
            key_id=point["key_id"],
            signature=point["signature"],
        )
    head = game.head_seq
    transaction.on_commit(lambda: state_cache.put(game.id, head, table_after))
    return rows


def _head_hash(game: Game) -> str:
    at_head = GameEvent.objects.filter(game=game, seq=game.head_seq).order_by()
    return at_head.values_list("hash", flat=True).first() or GENESIS


# ---- the append's statements ---------------------------------------------------------
# Written once per shape rather than built by the ORM per move: building them cost more
# CPU than sending them. Values still go through each field's get_db_prep_save, as the
# ORM's would; nothing is read back (no RETURNING: no caller needs the rows' ids). On
# PostgreSQL the INSERT rides in the UPDATE's WITH clause: one round trip, not two (a
# data-modifying WITH runs to completion whether or not the UPDATE reads it).
def _write_rows(
    rows: list[GameEvent], game: Game, changes: dict[str, Any], active_players: str | None
) -> None:
    fields, insert = _insert_statement(connection.vendor, len(rows))
    insert_params = [
        f.get_db_prep_save(getattr(row, f.attname), connection) for row in rows for f in fields
    ]
    guarded = active_players is not None
    game_fields, update = _update_statement(connection.vendor, tuple(changes), guarded)
    update_params = [f.get_db_prep_save(changes[f.name], connection) for f in game_fields]
    if guarded:
        update_params.insert(0, active_players)
    update_params.append(Game._meta.pk.get_db_prep_value(game.pk, connection))
    if connection.vendor == "postgresql":
        # Inside the write path's fused transaction it travels with COMMIT.
        write = prepared.execute_form(f"WITH appended AS ({insert}) {update}")
        round_trips.send_with_commit(write, insert_params + update_params)
    else:
        with connection.cursor() as cursor:
            cursor.execute(insert, insert_params)
            cursor.execute(update, update_params)
    for row in rows:
        row._state.adding, row._state.db = False, connection.alias


@lru_cache(maxsize=32)
def _insert_statement(vendor: str, count: int) -> tuple[list[Field], str]:
    quote = connection.ops.quote_name
    fields = [f for f in GameEvent._meta.concrete_fields if not f.primary_key]
    values = "(" + ", ".join(["%s"] * len(fields)) + ")"
    columns = ", ".join(quote(f.column) for f in fields)
    db_table = quote(GameEvent._meta.db_table)
    return fields, f"INSERT INTO {db_table} ({columns}) VALUES {', '.join([values] * count)}"


@lru_cache(maxsize=32)
def _update_statement(
    vendor: str, names: tuple[str, ...], guarded: bool = False
) -> tuple[list[Field], str]:
    quote = connection.ops.quote_name
    fields = [Game._meta.get_field(name) for name in names]
    assignments = [f"{quote(f.column)} = %s" for f in fields]
    db_table, key = quote(Game._meta.db_table), quote(Game._meta.pk.column)
    if guarded:  # PostgreSQL: the head becomes NULL, refused, unless the players match
        assert names[0] == "head_seq"
        head = fields[0]
        active = ACTIVE_PLAYERS.format(
            seats=quote(Seat._meta.db_table),
            users=quote(get_user_model()._meta.db_table),
            game=f"{db_table}.{key}",
        )
        assignments[0] = (
            f"{quote(head.column)} = CASE WHEN ({active}) = %s "
            f"THEN %s::{head.db_type(connection)} END"
        )
    return fields, f"UPDATE {db_table} SET {', '.join(assignments)} WHERE {key} = %s"


# The game's seated players whose accounts are active, as own_heads.OwnHead writes them.
# Each seat's account is looked up by its key: a join let stale statistics pick a scan
# of every account (3.5 ms a move in bench live's database, where this takes 0.15).
ACTIVE_PLAYERS = (
    "SELECT coalesce(string_agg(s.user_id::text, ',' ORDER BY s.user_id), '') "
    "FROM {seats} s WHERE s.game_id = {game} "
    "AND (SELECT u.is_active FROM {users} u WHERE u.id = s.user_id)"
)


def jsonable(value: Any) -> Any:
    """``value`` exactly as the database gives it back (tuples become lists), so the hash
    computed now matches the stored record."""
    return json.loads(json.dumps(value))
