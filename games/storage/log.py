"""The event log: a command's events as new rows after the head, read events back, replay.

The log is append-only (a database trigger refuses updates and deletes on PostgreSQL).
Each event carries the previous event's hash (games/storage/chain.py), and every
``SNAPSHOT_EVERY`` events, and when the game ends, a snapshot of the state is kept with
the deployment's signature of the log's head there (a checkpoint, games/storage/signing.py).
"""

from __future__ import annotations

import json
import uuid
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.conf import settings

from games import table as tables
from games.models import Game, GameEvent
from games.rules import get_ruleset
from games.rules.base import Event
from games.storage import recorder, signing
from games.storage.chain import GENESIS, record_hash


@dataclass(frozen=True)
class Actor:
    """Who caused a batch of events: ``seat:N``, ``bot:N``, ``system`` or ``staff:name``."""

    label: str
    seat: int | None = None


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


def events_between(game: Game, after: int, upto: int, limit: int | None = None) -> list[GameEvent]:
    """The events after seq ``after`` up to ``upto`` (at most ``limit``), in order."""
    rows = GameEvent.objects.filter(game=game, seq__gt=after, seq__lte=upto).order_by("seq")
    events = list(rows[:limit] if limit is not None else rows)
    for event in events:
        event.game = game
    return events


def replay(game: Game, upto: int | None = None) -> tables.TableState:
    """The full fold from the first event (audits and tests; never on the write path)."""
    ruleset = get_ruleset(game.ruleset)
    rows = GameEvent.objects.filter(game=game).order_by("seq")
    if upto is not None:
        rows = rows.filter(seq__lte=upto)
    return tables.fold(ruleset, [to_event(r) for r in rows.iterator()])


def head_hash(game: Game) -> str:
    """The hash of the event at the game's head (the next event's ``prev_hash``)."""
    at_head = GameEvent.objects.filter(game=game, seq=game.head_seq).order_by()
    return at_head.values_list("hash", flat=True).first() or GENESIS


def new_rows(
    game: Game,
    events: list[Event],
    *,
    after: int,
    prev_hash: str,
    actor: Actor,
    command: dict[str, Any] | None,
    command_id: uuid.UUID | None,
    now: datetime,
) -> list[GameEvent]:
    """``events`` as the log's rows after seq ``after``, each carrying the previous one's
    hash (the first, ``prev_hash``: the head event's); the command and its id ride on the
    first. Not saved: the recorder writes them (games/storage/recorder.py)."""
    rows = []
    prev = prev_hash
    for offset, event in enumerate(events):
        first = offset == 0
        row = GameEvent(
            game=game,
            seq=after + offset + 1,
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
    return rows


def event_record(row: GameEvent) -> recorder.EventRecord:
    """A new row as the recorder takes it: plain values."""
    return recorder.EventRecord(
        seq=row.seq,
        type=row.type,
        public=row.public,
        private=row.private,
        actor=row.actor,
        command_id=row.command_id,
        command=row.command,
        recorded_at=row.recorded_at,
        prev_hash=row.prev_hash,
        hash=row.hash,
    )


def checkpoint_after(
    game: Game, after: int, rows: list[GameEvent], table_after: tables.TableState
) -> recorder.Checkpoint | None:
    """The checkpoint due with ``rows`` (appended after seq ``after``), if one is: every
    ``SNAPSHOT_EVERY`` events, and when the game ends. A game that ends keeps its final
    state too, so an audit can check that replaying the log gives exactly the state the
    game ended in, not only its outcome."""
    head = rows[-1].seq
    periodic = head // settings.SNAPSHOT_EVERY > after // settings.SNAPSHOT_EVERY
    if not (periodic or table_after.over):
        return None
    point = signing.sign_checkpoint(str(game.id), head, rows[-1].hash)
    return recorder.Checkpoint(
        seq=head,
        state=tables.dump(get_ruleset(game.ruleset), table_after),
        head_hash=rows[-1].hash,
        key_id=point["key_id"],
        signature=point["signature"],
        created_at=rows[-1].recorded_at,
    )


def jsonable(value: Any) -> Any:
    """``value`` exactly as the database gives it back (tuples become lists), so the hash
    computed now matches the stored record."""
    return json.loads(json.dumps(value))
