"""The in-process bot runner (``BOT_RUNNER = "thread"``): fair across accounts.

One queue for every bot turn let one account's thinking bots hold up everyone's: two
tables of hard bots thinking 10 s a move made another player's easy bot wait 15-18 s.
Here each account (a table's host) has its own queue; the runner's threads take the
accounts in turn (round robin) and never run two turns of one account at once. So an
account's bots use at most one thread, and another account's turn waits at most for one
turn of each account ahead of it, not for everything they have queued.
"""

from __future__ import annotations

import collections
import logging
import threading
from collections.abc import Callable, Hashable, Iterable
from typing import Any

log = logging.getLogger(__name__)


class FairRunner:
    """Runs ``run(account, job)`` on ``threads`` daemon threads, round robin over the
    accounts with jobs waiting, one job at a time per account."""

    def __init__(self, run: Callable[[Hashable, Any], None], threads: int) -> None:
        self.run = run
        self.ready = threading.Condition()
        self.queues: dict[Hashable, collections.deque[Any]] = {}
        # Accounts with jobs waiting and none running, in the order they get a thread.
        self.turn_order: collections.deque[Hashable] = collections.deque()
        self.running: set[Hashable] = set()
        self.stopping = False
        self.threads = [
            threading.Thread(target=self._loop, name=f"bot-turns-{n}", daemon=True)
            for n in range(max(1, threads))
        ]
        for thread in self.threads:
            thread.start()

    def put_all(self, account: Hashable, jobs: Iterable[Any]) -> None:
        with self.ready:
            queue = self.queues.setdefault(account, collections.deque())
            queue.extend(jobs)
            if queue and account not in self.running and account not in self.turn_order:
                self.turn_order.append(account)
            self.ready.notify_all()

    def _next(self) -> tuple[Hashable, Any] | None:
        with self.ready:
            self.ready.wait_for(lambda: self.turn_order or self.stopping)
            if self.stopping:
                return None
            account = self.turn_order.popleft()
            self.running.add(account)
            return account, self.queues[account].popleft()

    def _done(self, account: Hashable) -> None:
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
            try:
                self.run(account, job)
            except Exception:
                log.exception("bot turn %s failed", job)
            finally:
                self._done(account)

    def stop(self) -> None:
        """Stop the threads once their running jobs end (tests; a clean shutdown)."""
        with self.ready:
            self.stopping = True
            self.ready.notify_all()
        for thread in self.threads:
            thread.join(timeout=30)
