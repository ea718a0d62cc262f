"""The clock sweep: record a timeout for every clock that has run out.

Expiry is decided under the game's row lock, from the clock state in the log, so any
number of sweepers (Celery beat on several hosts, the embedded sweeper thread, a cron
job) racing on one game record exactly one ``clock_expired`` per run-out clock: the
second sweeper to take the lock finds the seat already out of time.
"""

from __future__ import annotations

import uuid
from datetime import datetime

from django.db import transaction
from django.utils import timezone

from games import clocks, store
from games import table as tables
from games.models import Game, GameEvent
from games.services.writing import decide_and_append, locked

SWEEP_BATCH = 500


def clock_sweep(*, now: datetime | None = None) -> int:
    """Record the timeouts of every game whose first clock ran out; returns how many."""
    now = now or timezone.now()
    due = Game.objects.filter(status=Game.Status.ACTIVE, clock_deadline__lte=now)
    ids = list(due.order_by("clock_deadline").values_list("id", flat=True)[:SWEEP_BATCH])
    recorded = 0
    for game_id in ids:
        events = game_timeouts(game_id=game_id, now=now)
        recorded += sum(1 for e in events if e.type == tables.CLOCK_EXPIRED)
    return recorded


@transaction.atomic
def game_timeouts(*, game_id: uuid.UUID, now: datetime | None = None) -> list[GameEvent]:
    """Under the game's lock: one ``timeout`` command (actor ``system``) per run-out clock."""
    game = locked(game_id)
    if game.status != Game.Status.ACTIVE or game.head_seq == 0:
        return []
    now = now or timezone.now()
    now_ms = clocks.ms_of(now)
    with store.reading(game) as table:
        clock = table.clock
        expired = [] if clock is None else [s for s in clock.running if clock.expired(s, now_ms)]
    rows: list[GameEvent] = []
    for seat in sorted(expired):
        command = {"type": tables.TIMEOUT, "seat": seat}
        result = decide_and_append(
            game, store.Actor("system"), None, command, uuid.uuid4(), now=now
        )
        rows.extend(result.events)
        if game.status != Game.Status.ACTIVE:
            break
    return rows
