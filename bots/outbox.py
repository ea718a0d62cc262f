"""The bot turns owed, kept in the database so that no lost message stalls a game.

The write path announces, inside its transaction, that bot seats may act at the new head
(``games.signals.bot_turns_owed``); with the Celery runner this module records that as a
``BotTurn`` row in the same transaction, leased for the send the write makes right after
commit. Then:

- the turn's task deletes the row when it ran (a move, or nothing left to do);
- the dispatcher (``bots.dispatch.owed_turns_send``: Celery beat's
  ``bots.tasks.dispatch_bot_turns`` every BOT_DISPATCH_EVERY seconds) sends again every
  row whose lease ran out: the send after commit failed (Redis down), the message was
  lost (Redis restarted empty), the worker died holding it (its unacked copy waits for
  the visibility timeout), or the task gave up (the database down past its retries). It
  claims rows with ``SELECT ... FOR UPDATE SKIP LOCKED``, so several dispatchers never
  send one row twice at once, and finds the seats to act from the committed state, as
  the write path would.

Each lease doubles the last (capped), so a turn behind a backlog is not flooded with
copies; a copy is harmless anyway: the bot's command id, derived from (game, seq, seat),
makes a second delivery a no-op and a stale one is dropped.
"""

from __future__ import annotations

import uuid
from datetime import datetime, timedelta

from django.conf import settings
from django.utils import timezone

from bots.models import BotTurn
from games.models import Game

# The longest lease, however many sends came before (seconds).
LEASE_LIMIT = 300.0


def lease_seconds(think_seconds: float, attempts: int) -> float:
    """How long a sent turn may take before it is sent again: the table's thinking time
    plus BOT_LEASE_SECONDS, doubled for each send before."""
    return min(LEASE_LIMIT, (think_seconds + settings.BOT_LEASE_SECONDS) * 2**attempts)


def record(game: Game, head_seq: int, *, now: datetime | None = None) -> None:
    """Inside the write's transaction: bot seats may act at ``head_seq``. One row per
    game, written in one statement (insert, or update the game's row)."""
    now = now or timezone.now()
    due = now + timedelta(seconds=lease_seconds(game.think_seconds, 0))
    BotTurn.objects.bulk_create(
        [BotTurn(game_id=game.id, seq=head_seq, due_at=due, attempts=0)],
        update_conflicts=True,
        unique_fields=["game"],
        update_fields=["seq", "due_at", "attempts"],
    )


def done(game_id: uuid.UUID | str, seq: int) -> None:
    """The task of the turns at ``seq`` ran: nothing more is owed at that seq (a move it
    made recorded the next seq's row in its own transaction, which this leaves alone)."""
    BotTurn.objects.filter(game_id=game_id, seq=seq).delete()
