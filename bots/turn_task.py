"""The Celery task that plays one bot turn (``bots.tasks.take_turn``, registered through
``bots.tasks``). Its own module so that ``bots.dispatch``, which sends it, does not import
``bots.tasks``, whose clock sweep task calls ``bots.dispatch``."""

from __future__ import annotations

import logging

from celery import shared_task
from celery.exceptions import SoftTimeLimitExceeded
from django.db import InterfaceError, OperationalError

from bots import outbox, turns

log = logging.getLogger(__name__)
# The database away for a moment (a restart, a failover, no pooled connection free): the
# turn is tried again after 1, 2, 4, 4... seconds, then left to the outbox's dispatcher.
DATABASE_RETRIES = 6
DATABASE_BACKOFF_LIMIT = 4


# acks_late + reject_on_worker_lost: a turn whose worker process died (crash, OOM kill) is
# put back on the queue instead of being acked and lost; its command id, derived from
# (game, seq, seat), makes the redelivery a no-op if the move was already recorded. A task
# killed at its hard time limit is still acked by Celery (replaying a turn that overran by
# 15 s would likely overrun again), and a worker killed whole leaves its message unacked
# until the broker's visibility timeout: the outbox sends such a turn again once its
# lease runs out (bots/outbox.py).
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
        played = turns.take_turn(game_id, seat, expected_seq)
    except SoftTimeLimitExceeded:
        # The soft limit may fire anywhere in the task. Inside the strategy call,
        # turns.take_turn has the medium bot move instead; anywhere else (loading the game,
        # submitting: its transaction rolls back) the turn gives up cleanly rather than
        # racing the hard limit, and the outbox sends it again once its lease runs out. A
        # move that committed just before the signal is not played twice: the next task
        # finds the seq moved on.
        log.warning(
            "bot turn %s of %s at seq %s gave up at its soft time limit",
            seat,
            game_id,
            expected_seq,
        )
        return False
    outbox.done(game_id, expected_seq)
    return played
