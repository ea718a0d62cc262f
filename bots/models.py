"""The bot turns owed: the bots app's outbox (bots/outbox.py)."""

from __future__ import annotations

from django.db import models


class BotTurn(models.Model):
    """A game whose bot seats must act at ``seq``. Written in the transaction of the move
    that made them due, so it exists exactly when that move does; deleted by the turn's
    task once it ran. ``due_at`` is when the dispatcher sends the turn (again): the move's
    own send after commit leases it until then, and a send that failed or a task that
    died leaves it due once the lease runs out."""

    game = models.OneToOneField(
        "games.Game", on_delete=models.CASCADE, primary_key=True, related_name="+"
    )
    seq = models.PositiveIntegerField()
    due_at = models.DateTimeField()
    # How many times the dispatcher sent it: each doubles the next lease.
    attempts = models.PositiveSmallIntegerField(default=0)

    class Meta:
        indexes = [models.Index(fields=["due_at"], name="bots_botturn_due_at")]

    def __str__(self) -> str:
        return f"bot turns of {self.game_id} at seq {self.seq}"
