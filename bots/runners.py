"""The bot runners: what plays the turns ``bots.scheduling.send`` hands over.

Every runner has one method, ``send(game, jobs)``, and plays each job through
``bots.turns.take_turn``. BOT_RUNNER picks one (``runner``):

- ``celery``: ``CeleryQueue``, one ``take_turn`` task per job on the ``bots`` queue;
- ``thread``: ``InProcessThreads``, the embedded server's own threads, fair across hosts;
- ``inline``: ``InThisThread``, played before ``send`` returns (tests, the audit export);
- ``none``: ``NoRunner``, nothing is played (tests that drive bot turns by hand).
"""

from __future__ import annotations

import collections
import logging
import threading
import time
from collections.abc import Callable
from typing import Protocol

from celery import shared_task
from celery.exceptions import SoftTimeLimitExceeded
from django.conf import settings
from django.db import InterfaceError, OperationalError, close_old_connections

from bots import turns
from games.models import Game

log = logging.getLogger(__name__)
# (game id, seat, the head seq the seat is to act at)
Job = tuple[str, int, int]
# Seconds past the table's thinking time before Celery interrupts a bot turn (soft) or
# kills the worker process (hard).
SOFT_LIMIT_SLACK = 5.0
HARD_LIMIT_SLACK = 15.0
# The database away for a moment (a restart, a failover, no pooled connection free): the
# task is tried again after 1, 2, 4, 4... seconds, then left to the outbox.
DATABASE_RETRIES = 6
DATABASE_BACKOFF_LIMIT = 4


class Runner(Protocol):
    def send(self, game: Game, jobs: list[Job]) -> int:
        """Hand ``jobs`` over to be played; returns how many were taken (all but those a
        broker that is down refused)."""
        ...


# acks_late + reject_on_worker_lost: a turn whose worker process died (crash, OOM kill) is
# put back on the queue instead of being acked and lost; its command id, derived from
# (game, seq, seat), makes the redelivery a no-op if the move was already recorded. A task
# killed at its hard time limit is still acked by Celery (replaying a turn that overran by
# 15 s would likely overrun again), and a worker killed whole leaves its message unacked
# until the broker's visibility timeout: the outbox sends such a turn again once its
# lease runs out (bots/scheduling.py). Registered through bots.tasks (autodiscovery).
@shared_task(
    name="bots.tasks.take_turn",
    acks_late=True,
    reject_on_worker_lost=True,
    ignore_result=True,
    autoretry_for=(OperationalError, InterfaceError),
    max_retries=DATABASE_RETRIES,
    retry_backoff=1,
    retry_backoff_max=DATABASE_BACKOFF_LIMIT,
    retry_jitter=False,
)
def take_turn(game_id: str, seat: int, expected_seq: int) -> bool:
    try:
        return turns.take_turn(game_id, seat, expected_seq)
    except SoftTimeLimitExceeded:
        # The soft limit may fire anywhere in the task. Inside the strategy call,
        # turns.take_turn has the medium bot move instead; anywhere else (loading the game,
        # submitting: its transaction rolls back) the turn gives up cleanly rather than
        # racing the hard limit, still owed: the outbox sends it again once its lease runs
        # out. A move that committed just before the signal is not played twice: the next
        # task finds the seq moved on.
        log.warning(
            "bot turn %s of %s at seq %s gave up at its soft time limit",
            seat,
            game_id,
            expected_seq,
        )
        return False


def task_time_limits(game: Game) -> dict[str, float]:
    """Celery's limits for one bot turn: the search stops itself at the table's thinking
    time, so the soft limit only catches a runaway move (the turn then falls back to the
    medium bot), and the hard limit a stuck worker."""
    think = game.think_seconds
    return {"soft_time_limit": think + SOFT_LIMIT_SLACK, "time_limit": think + HARD_LIMIT_SLACK}


class CeleryQueue:
    """One ``take_turn`` task per job on BOT_QUEUE, time-limited by the table's thinking."""

    def send(self, game: Game, jobs: list[Job]) -> int:
        limits = task_time_limits(game)
        sent = 0
        for job in jobs:
            try:
                take_turn.apply_async(args=job, queue=settings.BOT_QUEUE, **limits)
                sent += 1
            except Exception:
                # The broker is unreachable (Redis down): the move that led here is
                # committed and stands, and the turn stays owed on the game's row.
                log.exception("could not send bot turn %s; the outbox sends it later", job)
        return sent


class InProcessThreads:
    """BOT_RUNNER_THREADS daemon threads of this process, fair across accounts.

    One queue for every bot turn let one account's thinking bots hold up everyone's: two
    tables of hard bots thinking 10 s a move made another player's easy bot wait 15-18 s.
    Here each account (a table's host) has its own queue; the threads take the accounts in
    turn (round robin) and never run two jobs of one account at once, so another account's
    turn waits at most for one turn of each account ahead of it. Each turn starts after
    BOT_MOVE_DELAY, so people can follow the game. The queues live in memory: a restart
    loses them, and the outbox sends their turns again.
    """

    def __init__(self, threads: int, delay: float, play: Callable[[str, int, int], object]) -> None:
        self.delay, self.play = delay, play
        self.ready = threading.Condition()
        self.queues: dict[object, collections.deque[Job]] = {}
        # Accounts with jobs waiting and none running, in the order they get a thread.
        self.turn_order: collections.deque[object] = collections.deque()
        self.running: set[object] = set()
        self.stopping = False
        self.threads = [
            threading.Thread(target=self._loop, name=f"bot-turns-{n}", daemon=True)
            for n in range(max(1, threads))
        ]
        for thread in self.threads:
            thread.start()

    def send(self, game: Game, jobs: list[Job]) -> int:
        self.put_all(game.created_by_id or str(game.id), jobs)
        return len(jobs)

    def put_all(self, account: object, jobs: list[Job]) -> None:
        with self.ready:
            queue = self.queues.setdefault(account, collections.deque())
            # A turn the outbox sent again while it waited behind its host's others is
            # queued once.
            queue.extend([job for job in jobs if job not in queue])
            if queue and account not in self.running and account not in self.turn_order:
                self.turn_order.append(account)
            self.ready.notify_all()

    def _next(self) -> tuple[object, Job] | None:
        with self.ready:
            self.ready.wait_for(lambda: self.turn_order or self.stopping)
            if self.stopping:
                return None
            account = self.turn_order.popleft()
            self.running.add(account)
            return account, self.queues[account].popleft()

    def _done(self, account: object) -> None:
        with self.ready:
            self.running.discard(account)
            if self.queues[account]:
                self.turn_order.append(account)  # behind every account now waiting
                self.ready.notify()
            else:
                del self.queues[account]

    def _loop(self) -> None:
        while (taken := self._next()) is not None:
            account, job = taken
            time.sleep(self.delay)
            try:
                close_old_connections()
                self.play(*job)
            except Exception:
                log.exception("bot turn %s failed; it stays owed", job)
            finally:
                close_old_connections()
                self._done(account)

    def stop(self) -> None:
        """Stop the threads once their running jobs end (tests; a clean shutdown)."""
        with self.ready:
            self.stopping = True
            self.ready.notify_all()
        for thread in self.threads:
            thread.join(timeout=30)


class InThisThread(threading.local):
    """Plays the jobs before ``send`` returns, as a loop rather than a recursion: a bot
    turn's own move sends the next turns, which only queue here, so an all-bot game of any
    length ends without touching the recursion limit."""

    def __init__(self) -> None:
        self.pending: list[Job] = []
        self.running = False

    def send(self, game: Game, jobs: list[Job]) -> int:
        self.pending.extend(jobs)
        if self.running:
            return len(jobs)
        self.running = True
        try:
            while self.pending:
                turns.take_turn(*self.pending.pop(0))
        finally:
            self.running = False
            self.pending.clear()
        return len(jobs)


class NoRunner:
    """Plays nothing: the turns stay owed (tests that drive bot turns by hand)."""

    def send(self, game: Game, jobs: list[Job]) -> int:
        return len(jobs)


_lock = threading.Lock()
_threads: InProcessThreads | None = None
_in_this_thread = InThisThread()


def runner() -> Runner:
    """The runner BOT_RUNNER names (read at each send: tests switch it)."""
    global _threads
    name = settings.BOT_RUNNER
    if name == "celery":
        return CeleryQueue()
    if name == "thread":
        with _lock:
            if _threads is None:
                _threads = InProcessThreads(
                    settings.BOT_RUNNER_THREADS, settings.BOT_MOVE_DELAY, turns.take_turn
                )
            return _threads
    if name == "inline":
        return _in_this_thread
    return NoRunner()
