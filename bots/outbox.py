"""The bot turns owed, kept on the game's row so that no lost message stalls a game.

The statement that records a move also records whether bot seats are owed a turn at the
new head (``Game.bots_due_at``, games/services/writing.py): the lease of the send the
write makes right after, or NULL when no bot turn is owed. Then:

- the turn's task clears it when it ran (a move records the next head's own);
- the dispatcher (``bots.dispatch.owed_turns_send``: Celery beat's
  ``bots.tasks.dispatch_bot_turns`` every BOT_DISPATCH_EVERY seconds) sends again every
  game whose lease ran out: the send after commit failed (Redis down), the message was
  lost (Redis restarted empty), the worker died holding it (its unacked copy waits for
  the visibility timeout), or the task gave up (the database down past its retries). It
  claims a game by a conditional UPDATE (the lease it read, at the head it read), so two
  dispatchers never send one turn at once and a move at that game never waits on them.

Each lease doubles the last (capped), so a turn behind a backlog is not flooded with
copies; a copy is harmless anyway: the bot's command id, derived from (game, seq, seat),
makes a second delivery a no-op and a stale one is dropped.
"""

from __future__ import annotations

import uuid
from datetime import datetime, timedelta

from django.conf import settings
from django.db.models import F

from games.models import Game

# The longest lease, however many sends came before (seconds).
LEASE_LIMIT = 300.0


def lease_seconds(think_seconds: float, sends: int) -> float:
    """How long a sent turn may take before it is sent again: the table's thinking time
    plus BOT_LEASE_SECONDS, doubled for each send before."""
    return min(LEASE_LIMIT, (think_seconds + settings.BOT_LEASE_SECONDS) * 2**sends)


def claim(game: Game, now: datetime) -> bool:
    """Lease the turns owed at ``game``'s head (as read, its lease run out) for one more
    send; False when another dispatcher, a move or the task changed it first."""
    lease = lease_seconds(game.think_seconds, game.bots_sends + 1)
    claimed = Game.objects.filter(
        pk=game.pk, head_seq=game.head_seq, bots_due_at=game.bots_due_at
    ).update(bots_due_at=now + timedelta(seconds=lease), bots_sends=F("bots_sends") + 1)
    return claimed == 1


def done(game_id: uuid.UUID | str, seq: int) -> None:
    """The task of the turns at ``seq`` ran: nothing more is owed at that seq (a move it
    made recorded the next head's own, which this leaves alone)."""
    Game.objects.filter(pk=game_id, head_seq=seq).update(bots_due_at=None)
