"""The clock sweep: record a timeout for every clock that has run out.

Expiry is decided under the game's row lock, from the clock state in the log, so any
number of sweepers (Celery beat on several hosts, the embedded sweeper thread, a cron
job) racing on one game record exactly one ``clock_expired`` per run-out clock: the
second sweeper to take the lock finds the seat already out of time.
"""

from __future__ import annotations

import uuid
from datetime import datetime, timedelta

from django.conf import settings
from django.db import transaction
from django.db.models import Exists, OuterRef, Subquery
from django.utils import timezone

from games import clocks, storage
from games import table as tables
from games.models import Game, GameEvent
from games.rules import get_ruleset
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
    # Games where a player already ran out of time and only bots are left to act on it:
    # no clock runs for that seat, so its later turns are looked at here.
    for game_id in _waiting_on_a_timed_out_seat(now, exclude=ids):
        game_timeouts(game_id=game_id, now=now)
    for game_id in _waiting_untimed(now):
        game_absences(game_id=game_id, now=now)
    return recorded


def _waiting_untimed(now: datetime) -> list:
    """Untimed games whose head has not moved for ABSENT_AFTER_HOURS."""
    moved_at = GameEvent.objects.filter(game=OuterRef("pk"), seq=OuterRef("head_seq"))
    absent = GameEvent.objects.filter(
        game=OuterRef("pk"), seq=OuterRef("head_seq"), type=tables.SEAT_ABSENT
    )
    waiting = (
        Game.objects.filter(status=Game.Status.ACTIVE, clock_deadline__isnull=True)
        .exclude(Exists(absent))  # already said so, and nobody moved since
        .annotate(moved_at=Subquery(moved_at.values("recorded_at")[:1]))
        .filter(moved_at__lte=now - timedelta(hours=settings.ABSENT_AFTER_HOURS))
        .order_by("moved_at")
    )
    return list(waiting.values_list("id", flat=True)[:SWEEP_BATCH])


@transaction.atomic
def game_absences(*, game_id: uuid.UUID, now: datetime | None = None) -> list[GameEvent]:
    """Under the game's lock, at an untimed table: each person to act whose table has
    waited ABSENT_AFTER_HOURS is declared gone (``absent``, actor ``system``); the others
    may then skip or expel, and when they are all bots, a bot takes the seat (expel)."""
    game = locked(game_id)
    now = now or timezone.now()
    if game.status != Game.Status.ACTIVE or game.head_seq == 0:
        return []
    if not _waited(game, now, int(settings.ABSENT_AFTER_HOURS * 3_600_000)):
        return []
    rules = get_ruleset(game.ruleset)
    seats = [s for s in game.seats.all() if s.number is not None]
    people = {s.number for s in seats if not s.bot_level}
    with storage.reading(game) as table:
        if table.clock is not None:
            return []
        gone = sorted(
            (tables.to_act(rules, table) & people)
            - set(table.absent)
            - set(table.skipping)
            - set(table.departures)
        )
    rows: list[GameEvent] = []
    system = storage.Actor("system")
    for seat in gone:
        command = {"type": tables.ABSENT, "seat": seat}
        rows.extend(decide_and_append(game, system, None, command, uuid.uuid4(), now=now).events)
        if not people - {seat}:  # only bots to choose: a bot takes the seat
            expel = {"type": tables.EXPEL, "seat": seat}
            rows.extend(decide_and_append(game, system, None, expel, uuid.uuid4(), now=now).events)
        if game.status != Game.Status.ACTIVE:
            break
    return rows


def _waiting_on_a_timed_out_seat(now: datetime, exclude: list) -> list:
    moved_at = GameEvent.objects.filter(game=OuterRef("pk"), seq=OuterRef("head_seq"))
    expired = GameEvent.objects.filter(game=OuterRef("pk"), type=tables.CLOCK_EXPIRED)
    waiting = (
        Game.objects.filter(Exists(expired), status=Game.Status.ACTIVE)
        .exclude(id__in=exclude)
        .annotate(moved_at=Subquery(moved_at.values("recorded_at")[:1]))
        .filter(moved_at__lte=now)
        .order_by("moved_at")
    )
    return list(waiting.values_list("id", flat=True)[:SWEEP_BATCH])


@transaction.atomic
def game_timeouts(*, game_id: uuid.UUID, now: datetime | None = None) -> list[GameEvent]:
    """Under the game's lock: one ``timeout`` command (actor ``system``) per run-out clock."""
    game = locked(game_id)
    if game.status != Game.Status.ACTIVE or game.head_seq == 0:
        return []
    now = now or timezone.now()
    now_ms = clocks.ms_of(now)
    with storage.reading(game) as table:
        clock = table.clock
        expired = [] if clock is None else [s for s in clock.running if clock.expired(s, now_ms)]
    rows: list[GameEvent] = []
    for seat in sorted(expired):
        command = {"type": tables.TIMEOUT, "seat": seat}
        result = decide_and_append(
            game, storage.Actor("system"), None, command, uuid.uuid4(), now=now
        )
        rows.extend(result.events)
        if game.status != Game.Status.ACTIVE:
            break
    if game.status == Game.Status.ACTIVE:
        rows.extend(_bot_opponents_act(game, set(expired), now))
    return rows


# ---- bot opponents apply the timeout policy for themselves ------------------------------
def _bot_opponents_act(game: Game, just_expired: set[int], now: datetime) -> list[GameEvent]:
    """A seat out of time whose every opponent is a bot: the bots do what a person could
    (``skip``: a bot plays the turn), and at the seat's BOT_EXPEL_AFTER_TIMEOUTS-th turn
    out of time they expel it. A turn counts once its clock ran out, or, for its later
    turns (no clock runs for a seat out of time), once it waited a move's time (the
    increment; a turn-based table's hours) without a move. Recorded as the system's."""
    rules = get_ruleset(game.ruleset)
    seats = [s for s in game.seats.all() if s.number is not None]
    people = {s.number for s in seats if not s.bot_level}
    with storage.reading(game) as table:
        clock = table.clock
        if clock is None:
            return []
        acting = tables.to_act(rules, table)
        late = [
            s
            for s in sorted(clock.timed_out)
            if s in acting and s not in table.skipping and s not in table.departures
        ]
        grace = clock.per_move_ms if not clock.realtime else clock.increment_ms
    rows: list[GameEvent] = []
    for seat in late:
        if people - {seat}:
            continue  # a person is left to choose: the table waits for them
        if seat not in just_expired and not _waited(game, now, grace):
            continue
        skipped = GameEvent.objects.filter(
            game=game, type=tables.TURN_SKIPPED, public__seat=seat, public__by=None
        ).count()
        expel = skipped + 1 >= settings.BOT_EXPEL_AFTER_TIMEOUTS
        command = {"type": tables.EXPEL if expel else tables.SKIP, "seat": seat}
        result = decide_and_append(
            game, storage.Actor("system"), None, command, uuid.uuid4(), now=now
        )
        rows.extend(result.events)
        if game.status != Game.Status.ACTIVE:
            break
    return rows


def _waited(game: Game, now: datetime, grace_ms: int) -> bool:
    head = GameEvent.objects.filter(game=game, seq=game.head_seq).values("recorded_at").first()
    return head is not None and head["recorded_at"] <= now - timedelta(milliseconds=grace_ms)
