"""How a bot turn is owed, sent, taken and recovered: one path, whatever runs the bots.

1. **Owed.** The statement that records a move also records whether bot seats are owed a
   turn at the new head: ``Game.bots_due_at``, the lease of the send about to be made
   (the table's thinking time + BOT_LEASE_SECONDS), with ``Game.bots_sends`` = 0; NULL
   when no bot turn is owed (games/services/writing.py ``bots_owed``, inside the move's
   transaction). A move that rolls back owes nothing.
2. **Sent.** After the commit, games announces the turns (``games.signals.bot_turns_due``;
   the write found them under the game's lock, so no query) and ``bot_turns_due_send``
   hands them to the runner BOT_RUNNER names (bots/runners.py ``runner``): a Celery task
   on the ``bots`` queue, a thread of the embedded server, the calling thread (tests), or
   nobody. A broker that is down refuses the send; the move stands, the turn stays owed.
3. **Taken.** The runner plays each turn through bots/turns.py ``take_turn``: it plays
   only if the seat is still to act at the seq it was sent for, under a command id derived
   from (game, seq, seat), so a second delivery is a no-op; then it clears the turns owed
   at that seq (``owed_clear``). The move it records owes the next head's turns (1.).
4. **Recovered.** ``owed_turns_send`` sends again every game whose lease ran out: the send
   failed (Redis down), the message was lost (Redis restarted empty, the embedded
   server restarted with turns in its queue), the worker died holding it (its unacked copy
   waits for the visibility timeout), or the turn gave up (a soft time limit, the database
   down past its retries). It runs every BOT_DISPATCH_EVERY seconds in Celery beat
   (bots/tasks.py ``dispatch_bot_turns``), and in the embedded server's ``Ticker`` and
   ``manage.py sweep_clocks`` every CLOCK_SWEEP_EVERY seconds. It claims a game by a
   conditional UPDATE (``claim``: the lease it read, at the head it read), so two of them
   never send one turn at once and a move at that game never waits on them. Each lease
   doubles the last (``lease_seconds``, capped), so a turn behind a backlog is not flooded
   with copies; a copy is harmless anyway (3.).

That is the only recovery path: nothing else looks for stalled games.
"""

from __future__ import annotations

import logging
import threading
from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.db import close_old_connections, connection
from django.db.models import F
from django.dispatch import receiver
from django.utils import timezone

from bots import runners, turns
from bots.runners import Job
from games import signals
from games.models import Game

log = logging.getLogger(__name__)
# The longest lease, however many sends came before (seconds).
LEASE_LIMIT = 300.0
# Owed games one round looks at; the rest wait for the next round, a second later.
DISPATCH_BATCH = 100


def lease_seconds(think_seconds: float, sends: int) -> float:
    """How long a sent turn may take before it is sent again: the table's thinking time
    plus BOT_LEASE_SECONDS, doubled for each send before."""
    return min(LEASE_LIMIT, (think_seconds + settings.BOT_LEASE_SECONDS) * 2**sends)


def jobs_of(game: Game) -> list[Job]:
    """The turns to play at ``game``'s head, found by query."""
    return [(str(game.id), seat, game.head_seq) for seat, _ in turns.bot_seats_to_act(game)]


def send(game: Game, jobs: list[Job]) -> int:
    """Hand ``jobs`` to the configured runner; returns how many it took."""
    return runners.runner().send(game, jobs) if jobs else 0


# games imports nothing from here: it announces bot turns due (games.signals).
@receiver(signals.bot_turns_due, dispatch_uid="bots.bot_turns_due_send")
def bot_turns_due_send(
    *, game: Game, head_seq: int, bot_turns: list[tuple[int, str]] | None, **_: Any
) -> None:
    """After a commit: send the (seat, level) turns the write found to act at
    ``head_seq``; None means find them (a query)."""
    if bot_turns is None:
        send(game, jobs_of(game))
    else:
        send(game, [(str(game.id), seat, head_seq) for seat, _ in bot_turns])


def claim(game: Game, now: datetime) -> bool:
    """Lease the turns owed at ``game``'s head (as read, its lease run out) for one more
    send; False when another dispatcher, a move or the turn changed it first."""
    lease = lease_seconds(game.think_seconds, game.bots_sends + 1)
    claimed = Game.objects.filter(
        pk=game.pk, head_seq=game.head_seq, bots_due_at=game.bots_due_at
    ).update(bots_due_at=now + timedelta(seconds=lease), bots_sends=F("bots_sends") + 1)
    return claimed == 1


def owed_turns_send(*, now: datetime | None = None) -> int:
    """Send again the bot turns owed whose lease ran out; returns how many were sent. A
    broker that refuses ends the round (the turns are sent again when the new lease runs
    out)."""
    now = now or timezone.now()
    sent = 0
    due = Game.objects.filter(status=Game.Status.ACTIVE, bots_due_at__lte=now)
    for game in list(due.order_by("bots_due_at")[:DISPATCH_BATCH]):
        if not claim(game, now):  # another dispatcher has it, or the game moved on
            continue
        jobs = jobs_of(game)
        if not jobs:  # nothing to play at this head after all
            turns.owed_clear(game.id, game.head_seq)
            continue
        log.warning(
            "game %s at seq %s: bot turns %s sent again (send %s)",
            game.id,
            game.head_seq,
            [seat for _, seat, _ in jobs],
            game.bots_sends + 1,
        )
        taken = send(game, jobs)
        sent += taken
        if taken < len(jobs):
            break
    return sent


def tables_sweep() -> int:
    """The tables' timers, one round: record the timeouts of clocks that ran out, close
    the rematch tables nobody came to, seat the quick-match players whose wait is over.
    Celery beat runs it (bots/tasks.py ``sweep_clocks``), and so does ``sweep``; returns
    the timeouts recorded."""
    from games.services import clock_sweep, quick_matches_settle, stale_rematches_close

    timeouts = clock_sweep()
    stale_rematches_close()
    quick_matches_settle()
    return timeouts


def sweep() -> tuple[int, int]:
    """One round of the embedded server's ``Ticker`` and of ``manage.py sweep_clocks``:
    the tables' timers (``tables_sweep``), then the bot turns owed whose lease ran out;
    returns (timeouts recorded, bot turns sent again)."""
    return tables_sweep(), owed_turns_send()


class Ticker:
    """The embedded server's Celery beat: a thread that runs ``sweep`` every
    CLOCK_SWEEP_EVERY seconds."""

    def __init__(self) -> None:
        self.stopping = threading.Event()
        self.thread = threading.Thread(target=self._loop, name="clock-sweep", daemon=True)
        self.thread.start()

    def _loop(self) -> None:
        while not self.stopping.wait(settings.CLOCK_SWEEP_EVERY):
            try:
                close_old_connections()
                sweep()
            except Exception:
                log.exception("clock sweep failed")
            finally:
                close_old_connections()
        # A stopped ticker leaves no database session behind (conn_max_age keeps it open
        # otherwise, e.g. past the end of a test run).
        connection.close()


_ticker_lock = threading.Lock()
_ticker: Ticker | None = None


def ticker_start() -> None:
    """Start the embedded server's ticker once (BOT_RUNNER "thread" only): at the server
    process's start (bots/apps.py), and by tests."""
    global _ticker
    if settings.BOT_RUNNER != "thread":
        return
    with _ticker_lock:
        if _ticker is None:
            _ticker = Ticker()


def ticker_stop() -> None:
    """Stop the ticker thread and wait for it (tests; a clean shutdown)."""
    global _ticker
    with _ticker_lock:
        ticker, _ticker = _ticker, None
    if ticker is not None:
        ticker.stopping.set()
        ticker.thread.join(timeout=10)
