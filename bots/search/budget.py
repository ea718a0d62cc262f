"""The thinking budget of a search bot: wall-clock seconds, playouts, or both.

Strategies keep the registry's signature ``(ruleset, state, seat, rng)``, so the budget
travels beside the call, in a context variable: the service wraps a bot turn in
``with thinking_budget(seconds=...)`` (a table's own budget, else the setting
``BOT_THINK_SECONDS``); the arena and the tests do the same. A budget of playouts is
deterministic (the same view and RNG give the same decision), a budget of seconds is not.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass

DEFAULT_THINK_SECONDS = 1.0
# Time kept back from the budget for what follows the last playout (choosing, returning)
# and for a busy machine's scheduling: the larger of MARGIN seconds and MARGIN_SHARE of it.
MARGIN = 0.03
MARGIN_SHARE = 0.05


@dataclass(frozen=True)
class Budget:
    """Stop at whichever limit comes first; ``None`` means no limit of that kind."""

    seconds: float | None = DEFAULT_THINK_SECONDS
    playouts: int | None = None

    def __post_init__(self) -> None:
        if self.seconds is None and self.playouts is None:
            raise ValueError("a budget needs seconds or playouts")
        if self.seconds is not None and self.seconds <= 0:
            raise ValueError("seconds must be positive")
        if self.playouts is not None and self.playouts < 1:
            raise ValueError("playouts must be at least 1")

    def clock(self, started: float | None = None) -> Clock:
        return Clock(self, time.perf_counter() if started is None else started)


class Clock:
    """Counts playouts against a budget from a starting instant."""

    def __init__(self, budget: Budget, started: float) -> None:
        self.budget = budget
        self.started = started
        self.playouts = 0
        self.deadline = (
            None
            if budget.seconds is None
            else started
            + max(budget.seconds - max(MARGIN, budget.seconds * MARGIN_SHARE), budget.seconds * 0.5)
        )

    def spend(self, playouts: int = 1) -> None:
        self.playouts += playouts

    def left(self, upcoming: float = 0.0) -> bool:
        """Whether the budget allows one more playout that takes ``upcoming`` seconds."""
        limit = self.budget.playouts
        if limit is not None and self.playouts >= limit:
            return False
        return self.deadline is None or time.perf_counter() + upcoming < self.deadline

    def pace(self) -> float:
        """Seconds per playout so far (0 before the first): what the next one may take."""
        if not self.playouts:
            return 0.0
        return (time.perf_counter() - self.started) / self.playouts


_BUDGET: ContextVar[Budget | None] = ContextVar("bot_thinking_budget", default=None)


def current_budget() -> Budget:
    return _BUDGET.get() or Budget()


@contextmanager
def thinking_budget(
    seconds: float | None = DEFAULT_THINK_SECONDS, playouts: int | None = None
) -> Iterator[Budget]:
    """Search bots called inside this block think within this budget."""
    budget = Budget(seconds=seconds, playouts=playouts)
    token = _BUDGET.set(budget)
    try:
        yield budget
    finally:
        _BUDGET.reset(token)
