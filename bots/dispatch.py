"""Scheduling bot turns after a commit, by the configured runner.

- ``celery``: one task per bot seat to act, on the ``bots`` queue.
- ``thread``: in-process worker threads (the embedded server), fair across the tables'
  hosts (bots/runner.py), with a short pause per move so people can follow the game.
- ``inline``: run in the calling thread, as a loop rather than a recursion, so an all-bot
  game of any length finishes without touching the recursion limit.
- ``none``: nothing is scheduled (tests that drive bot turns by hand).

The clock sweep (``sweep``) follows the same setting: with ``celery`` Celery beat runs
``bots.tasks.sweep_clocks``; with ``thread`` an in-process sweeper thread is started once
when the server process starts (bots/apps.py); with ``inline`` / ``none`` nothing sweeps
by itself (tests call ``services.clock_sweep``; ``manage.py sweep_clocks --loop`` serves
any other deployment). All three run the same ``sweep``.

With ``celery``, the bot turns owed are also kept on the game's row (bots/outbox.py), and
``owed_turns_send`` (Celery beat, every BOT_DISPATCH_EVERY seconds) sends again those whose
lease ran out: a lost message or a dead worker costs seconds.

Each sweep also nudges stalled bot turns (``stalled_bot_turns_nudge``): a turn whose task
was lost (killed at its hard limit, which Celery acks; a soft limit that gave up; the
in-process queue lost in a restart; a failed after-commit hook) is otherwise never played
again, since only the write path's after-commit schedules bot turns (with ``celery`` the
outbox sends them first: this is the last resort). A nudge goes through
``bot_turns_schedule``, and the command id derived from (game, seq, seat) makes a
duplicate nudge (several sweepers, or a nudge racing the original task) a no-op.
"""

from __future__ import annotations

import logging
import threading
import time
import uuid
from datetime import datetime, timedelta

from django.conf import settings
from django.db import close_old_connections, connection
from django.db.models import Exists, OuterRef, Q, Subquery
from django.utils import timezone

from bots import outbox, turn_task, turns
from bots.runner import FairRunner
from games import table as tables
from games.models import Game, GameEvent, Seat

log = logging.getLogger(__name__)
Job = tuple[str, int, int]
# Seconds past the table's thinking time before Celery interrupts a bot turn (soft) or
# kills the worker process (hard).
SOFT_LIMIT_SLACK = 5.0
HARD_LIMIT_SLACK = 15.0
# Owed bot turns one dispatch looks at; the rest wait for the next one, a second later.
DISPATCH_BATCH = 100
# Stalled games looked at per sweep, the most recently stalled first (a lost turn is
# nudged promptly even with many long-idle games waiting on their human players).
STALL_BATCH = 200


def _game(game_id: uuid.UUID | str) -> Game | None:
    try:
        return Game.objects.get(pk=game_id)
    except Game.DoesNotExist:
        return None


def _jobs_for(game: Game) -> list[Job]:
    return [(str(game.id), seat, game.head_seq) for seat, _ in turns.bot_seats_to_act(game)]


def task_time_limits(game: Game) -> dict[str, float]:
    """Celery's limits for one bot turn: the search stops itself at the table's thinking
    time, so the soft limit only catches a runaway move (the turn then falls back to the
    medium bot), and the hard limit a stuck worker."""
    think = game.think_seconds
    return {"soft_time_limit": think + SOFT_LIMIT_SLACK, "time_limit": think + HARD_LIMIT_SLACK}


def bot_turns_schedule(game_id: uuid.UUID | str) -> None:
    game = _game(game_id)
    jobs = _jobs_for(game) if game else []
    if game is not None and jobs:
        _send(game, jobs)


def bot_turns_send(game: Game, head_seq: int, bot_turns: list[tuple[int, str]]) -> None:
    """Schedule the (seat, level) turns the write path found to act at ``head_seq``
    under the game's lock: no query (``bot_turns_schedule`` finds them itself)."""
    _send(game, [(str(game.id), seat, head_seq) for seat, _ in bot_turns])


def _send(game: Game, jobs: list[Job]) -> int:
    """Hand ``jobs`` to the runner; returns how many it took (all but the ones a broker
    that is down refused)."""
    runner = settings.BOT_RUNNER
    if runner == "celery":
        limits = task_time_limits(game)
        sent = 0
        for job in jobs:
            try:
                turn_task.take_turn.apply_async(args=job, queue=settings.BOT_QUEUE, **limits)
                sent += 1
            except Exception:
                # The broker is unreachable (Redis down): the move that led here is
                # committed and stands; stalled_bot_turns_nudge sends this turn again.
                log.exception("could not send bot turn %s; a clock sweep sends it later", job)
        return sent
    elif runner == "thread":
        # Queued per host: one account's bots never hold up another's (bots/runner.py).
        _worker().put_all(game.created_by_id or str(game.id), jobs)
    elif runner == "inline":
        _inline.run(jobs)
    # "none": bots wait (tests that drive bot turns by hand, maintenance).
    return len(jobs)


# (game id, head seq) -> when this process last looked at that stalled head: it looks
# again (and re-nudges) only BOT_STALL_SECONDS later, so a sweep every few seconds neither
# floods the queue behind a slow worker nor reloads every idle game's state each time.
# Per process: with several sweepers a head may be nudged once by each, which is harmless.
_looked_at: dict[tuple[str, int], datetime] = {}
_looked_lock = threading.Lock()


def stalled_bot_turns_nudge(*, now: datetime | None = None) -> int:
    """Schedule again, through ``bot_turns_schedule``'s path, every bot turn of a game
    whose head has not moved for the table's thinking time + BOT_STALL_SECONDS; returns
    how many turns were scheduled. Called by every clock sweep."""
    now = now or timezone.now()
    margin = timedelta(seconds=settings.BOT_STALL_SECONDS)
    moved_at = GameEvent.objects.filter(game=OuterRef("pk"), seq=OuterRef("head_seq"))
    # Bot-played seats: bots, departed players' seats (they get a bot_level) and turns
    # the others skipped (no bot_level: only the log says so).
    with_bots = Q(Exists(Seat.objects.filter(game=OuterRef("pk")).exclude(bot_level=""))) | Q(
        Exists(GameEvent.objects.filter(game=OuterRef("pk"), type=tables.TURN_SKIPPED))
    )
    stalled = (
        Game.objects.filter(with_bots, status=Game.Status.ACTIVE)
        .annotate(moved_at=Subquery(moved_at.values("recorded_at")[:1]))
        .filter(moved_at__lte=now - margin)
        .order_by("-moved_at")[:STALL_BATCH]
    )
    with _looked_lock:
        for key, when in list(_looked_at.items()):
            if when <= now - margin:
                del _looked_at[key]
    nudged = 0
    for game in stalled:
        if game.moved_at > now - margin - timedelta(seconds=game.think_seconds):
            continue  # a hard bot may still be thinking within its own budget
        with _looked_lock:
            key = (str(game.id), game.head_seq)
            if key in _looked_at:
                continue
            _looked_at[key] = now
        jobs = _jobs_for(game)
        if jobs:
            log.warning(
                "game %s stalled at seq %s: bot turns %s again", game.id, game.head_seq, jobs
            )
            nudged += _send(game, jobs)
    return nudged


def owed_turns_send(*, now: datetime | None = None) -> int:
    """Send again the bot turns owed whose lease ran out (bots/outbox.py); returns how many
    tasks were sent. Each game is claimed by a conditional UPDATE of its own, so two
    dispatchers never send one at once. A broker that refuses ends the round (the turns
    are sent again when the new lease runs out)."""
    now = now or timezone.now()
    sent = 0
    due = Game.objects.filter(status=Game.Status.ACTIVE, bots_due_at__lte=now)
    for game in list(due.order_by("bots_due_at")[:DISPATCH_BATCH]):
        if not outbox.claim(game, now):  # another dispatcher has it, or the game moved on
            continue
        jobs = _jobs_for(game)
        if not jobs:  # nothing to play at this head after all
            outbox.done(game.id, game.head_seq)
            continue
        log.warning(
            "game %s at seq %s: bot turns %s sent again (send %s)",
            game.id,
            game.head_seq,
            [seat for _, seat, _ in jobs],
            game.bots_sends + 1,
        )
        taken = _send(game, jobs)
        sent += taken
        if taken < len(jobs):
            break
    return sent


class _Inline(threading.local):
    """A trampoline: nested schedules from inside a bot turn only queue their jobs."""

    def __init__(self) -> None:
        self.pending: list[Job] = []
        self.running = False

    def run(self, jobs: list[Job]) -> None:
        self.pending.extend(jobs)
        if self.running:
            return
        self.running = True
        try:
            while self.pending:
                turns.take_turn(*self.pending.pop(0))
        finally:
            self.running = False
            self.pending.clear()


_inline = _Inline()


def _run_turn(account: object, job: Job) -> None:
    time.sleep(settings.BOT_MOVE_DELAY)
    try:
        close_old_connections()
        turns.take_turn(*job)
    finally:
        close_old_connections()


_worker_lock = threading.Lock()
_the_worker: FairRunner | None = None


def _worker() -> FairRunner:
    """The in-process runner: fair across the tables' hosts (bots/runner.py)."""
    global _the_worker
    with _worker_lock:
        if _the_worker is None:
            _the_worker = FairRunner(_run_turn, settings.BOT_RUNNER_THREADS)
        return _the_worker


def sweep() -> tuple[int, int]:
    """One clock sweep: record the timeouts of clocks that ran out, close the rematch
    tables nobody came to, then nudge stalled bot turns; returns (timeouts recorded, bot
    turns scheduled again). Celery beat's task first exports how long the oldest run-out
    clock waited (bots.tasks.sweep_clocks)."""
    from games.services import clock_sweep, stale_rematches_close

    timeouts = clock_sweep()
    stale_rematches_close()
    return timeouts, stalled_bot_turns_nudge()


class _ClockSweeper:
    """Every CLOCK_SWEEP_EVERY seconds, record the timeouts of clocks that ran out and
    nudge stalled bot turns (the embedded server's bot queue does not survive a restart)."""

    def __init__(self) -> None:
        self.stopping = threading.Event()
        self.thread = threading.Thread(target=self._loop, name="clock-sweep", daemon=True)
        self.thread.start()

    def _loop(self) -> None:
        while not self.stopping.wait(settings.CLOCK_SWEEP_EVERY):
            try:
                close_old_connections()
                sweep()
            except Exception:
                log.exception("clock sweep failed")
            finally:
                close_old_connections()
        # A stopped sweeper leaves no database session behind (conn_max_age keeps it open
        # otherwise, e.g. past the end of a test run).
        connection.close()


_the_sweeper: _ClockSweeper | None = None


def clock_sweeper_ensure() -> None:
    """Start the embedded server's sweeper thread once (BOT_RUNNER "thread" only): at the
    server process's start (bots/apps.py), and by tests."""
    global _the_sweeper
    if settings.BOT_RUNNER != "thread":
        return
    with _worker_lock:
        if _the_sweeper is None:
            _the_sweeper = _ClockSweeper()


def clock_sweeper_stop() -> None:
    """Stop the sweeper thread and wait for it (tests; a clean shutdown)."""
    global _the_sweeper
    with _worker_lock:
        sweeper, _the_sweeper = _the_sweeper, None
    if sweeper is not None:
        sweeper.stopping.set()
        sweeper.thread.join(timeout=10)
