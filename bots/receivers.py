"""The bots app's side of what games announces (games.signals): bot turns to schedule."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.dispatch import receiver

from bots import dispatch, outbox
from games import signals
from games.models import Game


@receiver(signals.bot_turns_owed, dispatch_uid="bots.bot_turns_record")
def bot_turns_record(*, game: Game, head_seq: int, **_: Any) -> None:
    # In the write's transaction. Only Celery's turns go through a broker and processes
    # that may lose them; the in-process runners play them in this process or not at all.
    if settings.BOT_RUNNER == "celery":
        outbox.record(game, head_seq)


@receiver(signals.bot_turns_due, dispatch_uid="bots.bot_turns_schedule")
def bot_turns_schedule(
    *, game: Game, head_seq: int, bot_turns: list[tuple[int, str]] | None, **_: Any
) -> None:
    # After commit: the turns found under the lock need no query; None means find them.
    if bot_turns is None:
        dispatch.bot_turns_schedule(game.id)
    else:
        dispatch.bot_turns_send(game, head_seq, bot_turns)
