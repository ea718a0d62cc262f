"""The bots app's side of what games announces (games.signals): bot turns to schedule."""

from __future__ import annotations

from typing import Any

from django.dispatch import receiver

from bots import dispatch
from games import signals
from games.models import Game


@receiver(signals.bot_turns_due, dispatch_uid="bots.bot_turns_schedule")
def bot_turns_schedule(
    *, game: Game, head_seq: int, bot_turns: list[tuple[int, str]] | None, **_: Any
) -> None:
    # After commit: the turns the write found need no query; None means find them.
    if bot_turns is None:
        dispatch.bot_turns_schedule(game.id)
    else:
        dispatch.bot_turns_send(game, head_seq, bot_turns)
