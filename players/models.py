"""Players are Django users; here are their ratings (mutes: community.models)."""

from __future__ import annotations

from django.conf import settings
from django.db import models

START_RATING = 1500.0


class Rating(models.Model):
    """A player's Elo rating in one game (ruleset)."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, related_name="ratings", on_delete=models.CASCADE
    )
    ruleset = models.CharField(max_length=40)
    value = models.FloatField(default=START_RATING)
    games = models.PositiveIntegerField(default=0)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["ruleset", "-value"]
        constraints = [
            models.UniqueConstraint(fields=["user", "ruleset"], name="one_rating_per_game")
        ]
        indexes = [models.Index(fields=["ruleset", "-value"])]

    def __str__(self) -> str:
        return f"{self.user} {self.ruleset} {self.value:.0f}"


class RatingChange(models.Model):
    """One player's rating change from one rated game (the history, and idempotence)."""

    game = models.ForeignKey("games.Game", related_name="rating_changes", on_delete=models.CASCADE)
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, related_name="rating_changes", on_delete=models.CASCADE
    )
    ruleset = models.CharField(max_length=40)
    place = models.PositiveSmallIntegerField()
    before = models.FloatField()
    after = models.FloatField()
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-created_at", "place"]
        constraints = [models.UniqueConstraint(fields=["game", "user"], name="one_change_per_game")]

    @property
    def delta(self) -> float:
        return self.after - self.before


class NameSkeleton(models.Model):
    """A skeleton of an account's name (``players.names.skeletons``: one or two), kept in
    step with the name on every save: a sign-up's look-alike check is one lookup on the
    index."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, related_name="name_skeletons", on_delete=models.CASCADE
    )
    # A prototype may be longer than its character ("m" reads as "rn"): room for that.
    skeleton = models.CharField(max_length=600, db_index=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["user", "skeleton"], name="one_row_per_skeleton")
        ]

    def __str__(self) -> str:
        return f"{self.user} ~ {self.skeleton}"


class BotAccount(models.Model):
    """An account turned into a bot account, for good (``players.services.bot_upgrade``):
    shown as a bot wherever its name is, ranked on the bots' leaderboards, and playing
    through the API only."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, related_name="bot_account", on_delete=models.CASCADE
    )
    upgraded_at = models.DateTimeField(auto_now_add=True)

    def __str__(self) -> str:
        return f"bot account {self.user}"


class MailSettings(models.Model):
    """What a player's email address is good for. The address itself is the account's
    ``email``; it counts as verified while it equals ``verified_email`` (a signed link
    mailed to it was opened), so a changed address is unverified until its own link is."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, related_name="mail_settings", on_delete=models.CASCADE
    )
    verified_email = models.EmailField(blank=True)
    # "Your turn" emails for turn-based tables; off from the unsubscribe link.
    turn_emails = models.BooleanField(default=True)

    def __str__(self) -> str:
        return f"mail settings of {self.user}"


class TurnEmail(models.Model):
    """When a player was last mailed "your turn" at a table: at most one an hour each."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, related_name="turn_emails", on_delete=models.CASCADE
    )
    game = models.ForeignKey("games.Game", related_name="turn_emails", on_delete=models.CASCADE)
    sent_at = models.DateTimeField()

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["user", "game"], name="one_turn_email_row_per_table")
        ]
