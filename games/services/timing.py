"""The clock sweep: record a timeout for every clock that has run out.

Expiry is decided at the game's head, from the clock state in the log, and recorded on
the condition that the head is still that one (writing.command_record), so any number of
sweepers (Celery beat on several hosts, the embedded sweeper thread, a cron job) racing
on one game record exactly one ``clock_expired`` per run-out clock: the sweeper that comes
second decides again on the new head and finds the seat already out of time.
"""

from __future__ import annotations

import uuid
from collections.abc import Callable
from datetime import datetime, timedelta

from django.conf import settings
from django.db.models import Exists, OuterRef, Subquery
from django.utils import timezone

from games import clocks, storage
from games import table as tables
from games.models import Game, GameEvent
from games.rules import get_ruleset
from games.services.writing import Intent, command_record

SWEEP_BATCH = 500
# Commands one sweep records at one game, at most: a few per seat.
MAX_SYSTEM_COMMANDS = 16
SYSTEM = storage.Actor("system")


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


def game_absences(*, game_id: uuid.UUID, now: datetime | None = None) -> list[GameEvent]:
    """At an untimed table: each person to act whose table has waited ABSENT_AFTER_HOURS
    is declared gone (``absent``, actor ``system``); the others may then skip or expel,
    and when they are all bots, a bot takes the seat (expel)."""
    now = now or timezone.now()

    def next_absence(head: storage.Head) -> Intent | None:
        game, table = head.game, head.table
        if game.status != Game.Status.ACTIVE or game.head_seq == 0 or table.clock is not None:
            return None
        people = {s.number for s in head.seats or [] if s.number is not None and not s.bot_level}
        for seat in sorted(set(table.absent) - set(table.departures)):
            if not people - {seat}:  # only bots to choose for it: a bot takes the seat
                return Intent(SYSTEM, None, {"type": tables.EXPEL, "seat": seat})
        if not _waited(game, now, int(settings.ABSENT_AFTER_HOURS * 3_600_000)):
            return None
        rules = get_ruleset(game.ruleset)
        gone = sorted(
            (tables.to_act(rules, table) & people)
            - set(table.absent)
            - set(table.skipping)
            - set(table.departures)
        )
        if not gone:
            return None
        return Intent(SYSTEM, None, {"type": tables.ABSENT, "seat": gone[0]})

    return _record_each(game_id, next_absence, now)


def _record_each(
    game_id: uuid.UUID, choose: Callable[[storage.Head], Intent | None], now: datetime
) -> list[GameEvent]:
    """Record what ``choose`` wants at each new head until it wants nothing (at most a few
    commands a seat: each one it chooses changes what it finds next)."""
    rows: list[GameEvent] = []
    for _ in range(MAX_SYSTEM_COMMANDS):
        result = command_record(game_id, choose, now=now)
        if result is None:
            break
        rows.extend(result.events)
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


def game_timeouts(*, game_id: uuid.UUID, now: datetime | None = None) -> list[GameEvent]:
    """One ``timeout`` command (actor ``system``) per run-out clock; then bot opponents
    act on seats out of time (``_bot_opponent_turn``)."""
    now = now or timezone.now()
    now_ms = clocks.ms_of(now)
    expired_now: set[int] = set()

    def next_timeout(head: storage.Head) -> Intent | None:
        game, clock = head.game, head.table.clock
        if game.status != Game.Status.ACTIVE or game.head_seq == 0 or clock is None:
            return None
        expired = sorted(s for s in clock.running if clock.expired(s, now_ms))
        if not expired:
            return None
        expired_now.add(expired[0])
        return Intent(SYSTEM, None, {"type": tables.TIMEOUT, "seat": expired[0]})

    rows = _record_each(game_id, next_timeout, now)
    skipped_by_bots: set[int] = set()

    def bot_opponent_turn(head: storage.Head) -> Intent | None:
        intent = _bot_opponent_turn(head, expired_now, skipped_by_bots, now)
        if intent is not None:
            skipped_by_bots.add(intent.command["seat"])
        return intent

    return rows + _record_each(game_id, bot_opponent_turn, now)


# ---- bot opponents apply the timeout policy for themselves ------------------------------
def _bot_opponent_turn(
    head: storage.Head, just_expired: set[int], done: set[int], now: datetime
) -> Intent | None:
    """A seat out of time whose every opponent is a bot: the bots do what a person could
    (``skip``: a bot plays the turn), and at the seat's BOT_EXPEL_AFTER_TIMEOUTS-th turn
    out of time they expel it. A turn counts once its clock ran out, or, for its later
    turns (no clock runs for a seat out of time), once it waited a move's time (the
    increment; a turn-based table's hours) without a move. Recorded as the system's.
    ``done``: seats this sweep already acted on (a seat is acted on once a sweep)."""
    game, table = head.game, head.table
    clock = table.clock
    if game.status != Game.Status.ACTIVE or clock is None:
        return None
    rules = get_ruleset(game.ruleset)
    people = {s.number for s in head.seats or [] if s.number is not None and not s.bot_level}
    acting = tables.to_act(rules, table)
    grace = clock.per_move_ms if not clock.realtime else clock.increment_ms
    for seat in sorted(clock.timed_out):
        if seat in done or seat not in acting or seat in table.skipping:
            continue
        if seat in table.departures or people - {seat}:
            continue  # a person is left to choose: the table waits for them
        if seat not in just_expired and not _waited(game, now, grace):
            continue
        skipped = GameEvent.objects.filter(
            game=game, type=tables.TURN_SKIPPED, public__seat=seat, public__by=None
        ).count()
        expel = skipped + 1 >= settings.BOT_EXPEL_AFTER_TIMEOUTS
        return Intent(SYSTEM, None, {"type": tables.EXPEL if expel else tables.SKIP, "seat": seat})
    return None


def _waited(game: Game, now: datetime, grace_ms: int) -> bool:
    head = GameEvent.objects.filter(game=game, seq=game.head_seq).values("recorded_at").first()
    return head is not None and head["recorded_at"] <= now - timedelta(milliseconds=grace_ms)
