"""Celery tasks: they hold no logic, they call bots.scheduling or a service.
``take_turn`` is defined next to the runner that sends it (bots/runners.py) and
registered from here, the module Celery's autodiscovery imports."""

from __future__ import annotations

from celery import shared_task

from bots.runners import take_turn
from bots.scheduling import owed_turns_send, tables_sweep

__all__ = ["dispatch_bot_turns", "observe_sweep_lag", "sweep_clocks", "take_turn"]


# Routed to the ``clocks`` queue too (CELERY_TASK_ROUTES), never behind bot turns.
@shared_task(name="bots.tasks.dispatch_bot_turns", ignore_result=True)
def dispatch_bot_turns() -> int:
    """Run by Celery beat every BOT_DISPATCH_EVERY seconds: send again the bot turns whose
    lease ran out (bots/scheduling.py). Returns the turns sent."""
    return owed_turns_send()


# Routed to the ``clocks`` queue (CELERY_TASK_ROUTES): a worker of its own, never behind
# a backlog of hard-bot turns.
@shared_task(name="bots.tasks.sweep_clocks", ignore_result=True)
def sweep_clocks() -> int:
    """Run by Celery beat every CLOCK_SWEEP_EVERY seconds (see kingdom/settings.py): the
    tables' timers (bots/scheduling.py ``tables_sweep``: clocks, rematches, quick
    matches). Returns the timeouts recorded."""
    observe_sweep_lag()
    return tables_sweep()


def observe_sweep_lag() -> None:
    """How long the oldest run-out clock has waited for a sweep (the metric's one query)."""
    from django.utils import timezone

    from games.models import Game
    from infra import metrics

    now = timezone.now()
    oldest = (
        Game.objects.filter(status=Game.Status.ACTIVE, clock_deadline__lte=now)
        .order_by("clock_deadline")
        .values_list("clock_deadline", flat=True)
        .first()
    )
    metrics.observe_sweep_lag(oldest, now)
