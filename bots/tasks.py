"""Celery tasks: they hold no logic, they load ids and call bots.turns or a service."""

from __future__ import annotations

from celery import shared_task

from bots import turns


@shared_task(name="bots.tasks.take_turn", acks_late=True, ignore_result=True)
def take_turn(game_id: str, seat: int, expected_seq: int) -> bool:
    return turns.take_turn(game_id, seat, expected_seq)


@shared_task(name="bots.tasks.sweep_clocks", ignore_result=True)
def sweep_clocks() -> int:
    """Run by Celery beat every CLOCK_SWEEP_EVERY seconds (see kingdom/settings.py)."""
    from games.services import clock_sweep

    return clock_sweep()
