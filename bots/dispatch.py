"""Scheduling bot turns after a commit, by the configured runner.

- ``celery``: one task per bot seat to act, on the ``bots`` queue.
- ``thread``: an in-process worker thread (the embedded server), with a short pause per
  move so people can follow the game.
- ``inline``: run in the calling thread, as a loop rather than a recursion, so an all-bot
  game of any length finishes without touching the recursion limit.
- ``none``: nothing is scheduled (tests that drive bot turns by hand).

The clock sweep follows the same setting: with ``celery`` Celery beat runs
``bots.tasks.sweep_clocks``; with ``thread`` an in-process sweeper thread is started
lazily (when a timed game's clock is pressed, or a game stream connects); with
``inline`` / ``none`` nothing sweeps by itself (tests call ``services.clock_sweep``;
``manage.py sweep_clocks --loop`` serves any other deployment).
"""

from __future__ import annotations

import logging
import queue
import threading
import time
import uuid

from django.conf import settings
from django.db import close_old_connections

from bots import turns
from games.models import Game

log = logging.getLogger(__name__)
Job = tuple[str, int, int]
# Seconds past the table's thinking time before Celery interrupts a bot turn (soft) or
# kills the worker process (hard).
SOFT_LIMIT_SLACK = 5.0
HARD_LIMIT_SLACK = 15.0


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


def schedule_bot_turns(game_id: uuid.UUID | str) -> None:
    runner = settings.BOT_RUNNER
    game = _game(game_id)
    jobs = _jobs_for(game) if game else []
    if not jobs:
        return
    if runner == "celery":
        from bots.tasks import take_turn

        limits = task_time_limits(game)
        for job in jobs:
            take_turn.apply_async(args=job, queue=settings.BOT_QUEUE, **limits)
    elif runner == "thread":
        _worker().put_all(jobs)
    elif runner == "inline":
        _inline.run(jobs)
    # "none": bots wait (tests that drive bot turns by hand, maintenance).


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


class _Worker:
    def __init__(self) -> None:
        self.jobs: queue.Queue[Job] = queue.Queue()
        thread = threading.Thread(target=self._loop, name="bot-turns", daemon=True)
        thread.start()

    def put_all(self, jobs: list[Job]) -> None:
        for job in jobs:
            self.jobs.put(job)

    def _loop(self) -> None:
        while True:
            job = self.jobs.get()
            time.sleep(settings.BOT_MOVE_DELAY)
            try:
                close_old_connections()
                turns.take_turn(*job)
            except Exception:
                log.exception("bot turn %s failed", job)
            finally:
                close_old_connections()


_worker_lock = threading.Lock()
_the_worker: _Worker | None = None


def _worker() -> _Worker:
    global _the_worker
    with _worker_lock:
        if _the_worker is None:
            _the_worker = _Worker()
        return _the_worker


class _ClockSweeper:
    """Every CLOCK_SWEEP_EVERY seconds, record the timeouts of clocks that ran out."""

    def __init__(self) -> None:
        self.stopping = threading.Event()
        self.thread = threading.Thread(target=self._loop, name="clock-sweep", daemon=True)
        self.thread.start()

    def _loop(self) -> None:
        from games.services import clock_sweep

        while not self.stopping.wait(settings.CLOCK_SWEEP_EVERY):
            try:
                close_old_connections()
                clock_sweep()
            except Exception:
                log.exception("clock sweep failed")
            finally:
                close_old_connections()


_the_sweeper: _ClockSweeper | None = None


def ensure_clock_sweeper() -> None:
    """Start the embedded server's sweeper thread once (BOT_RUNNER "thread" only)."""
    global _the_sweeper
    if settings.BOT_RUNNER != "thread":
        return
    with _worker_lock:
        if _the_sweeper is None:
            _the_sweeper = _ClockSweeper()


def stop_clock_sweeper() -> None:
    """Stop the sweeper thread and wait for it (tests; a clean shutdown)."""
    global _the_sweeper
    with _worker_lock:
        sweeper, _the_sweeper = _the_sweeper, None
    if sweeper is not None:
        sweeper.stopping.set()
        sweeper.thread.join(timeout=10)
