"""Chat, reports, moderation records and mutes.

The tables keep the names they had when these models lived in games and players
(``db_table``): moving the models to this app moved no data (migrations 0001).
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils import timezone


class ChatMessage(models.Model):
    """A line of a table's chat. Hidden by a moderator: kept (for the record), never sent."""

    game = models.ForeignKey("games.Game", related_name="chat", on_delete=models.CASCADE)
    author = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE)
    body = models.CharField(max_length=500)
    created_at = models.DateTimeField(auto_now_add=True, db_index=True)
    hidden = models.BooleanField(default=False)

    class Meta:
        db_table = "games_chatmessage"
        ordering = ["game", "created_at", "id"]

    def __str__(self) -> str:
        return f"{self.author} at {str(self.game_id)[:8]}: {self.body[:40]}"


class Report(models.Model):
    """A player's report of a chat message: the moderation queue's items."""

    class Status(models.TextChoices):
        OPEN = "open", "open"
        RESOLVED = "resolved", "resolved"
        DISMISSED = "dismissed", "dismissed"

    message = models.ForeignKey(ChatMessage, related_name="reports", on_delete=models.CASCADE)
    reporter = models.ForeignKey(
        settings.AUTH_USER_MODEL, related_name="reports_made", on_delete=models.CASCADE
    )
    reason = models.CharField(max_length=500, blank=True)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.OPEN)
    created_at = models.DateTimeField(auto_now_add=True)
    handled_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        related_name="reports_handled",
        on_delete=models.SET_NULL,
    )
    handled_at = models.DateTimeField(null=True, blank=True)
    note = models.CharField(max_length=500, blank=True)

    class Meta:
        db_table = "games_report"
        ordering = ["status", "created_at"]
        constraints = [
            models.UniqueConstraint(
                fields=["message", "reporter"],
                condition=models.Q(status="open"),
                name="one_open_report_per_reporter",
            )
        ]

    def __str__(self) -> str:
        return f"report {self.pk} ({self.status}) of message {self.message_id}"


class ModerationRecord(models.Model):
    """Who did what to whom, when and why. Written by community.services only;
    never changed. Actions on a game also append an event to its log (``event_seq``)."""

    class Action(models.TextChoices):
        HIDE_MESSAGE = "hide_message", "hid a chat message"
        MUTE = "mute", "muted a player"
        UNMUTE = "unmute", "lifted a mute"
        KICK = "kick", "removed a player from a table"
        ABORT = "abort", "aborted a game"
        BAN = "ban", "banned an account"
        UNBAN = "unban", "lifted a ban"
        RESOLVE_REPORT = "resolve_report", "resolved a report"
        DISMISS_REPORT = "dismiss_report", "dismissed a report"
        DISCONNECT = "disconnect", "closed a game's live connections"
        HOST_ACTION = "host_action", "acted as another table's host"

    action = models.CharField(max_length=20, choices=Action.choices)
    moderator = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        related_name="moderation_done",
        on_delete=models.SET_NULL,
    )
    # Kept even if the moderator's account is deleted later.
    moderator_name = models.CharField(max_length=150)
    reason = models.CharField(max_length=500, blank=True)
    target_user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        related_name="moderation_received",
        on_delete=models.SET_NULL,
    )
    game = models.ForeignKey(
        "games.Game", null=True, blank=True, related_name="moderation", on_delete=models.SET_NULL
    )
    message = models.ForeignKey(ChatMessage, null=True, blank=True, on_delete=models.SET_NULL)
    report = models.ForeignKey(Report, null=True, blank=True, on_delete=models.SET_NULL)
    event_seq = models.PositiveIntegerField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True, db_index=True)

    class Meta:
        db_table = "games_moderationrecord"
        ordering = ["-created_at", "-id"]

    def __str__(self) -> str:
        return f"{self.moderator_name} {self.get_action_display()} ({self.created_at:%Y-%m-%d})"


class Mute(models.Model):
    """A player may not chat until ``until`` (None: until a moderator lifts it)."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, related_name="mutes", on_delete=models.CASCADE
    )
    until = models.DateTimeField(null=True, blank=True)
    lifted_at = models.DateTimeField(null=True, blank=True)
    reason = models.CharField(max_length=500, blank=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, related_name="+", on_delete=models.SET_NULL
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        db_table = "players_mute"
        ordering = ["-created_at"]

    @classmethod
    def active(cls) -> models.QuerySet[Mute]:
        now = timezone.now()
        return cls.objects.filter(lifted_at__isnull=True).filter(
            models.Q(until__isnull=True) | models.Q(until__gt=now)
        )


class Block(models.Model):
    """A player's block of another: the blocked player may not challenge them."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, related_name="blocks", on_delete=models.CASCADE
    )
    blocked = models.ForeignKey(
        settings.AUTH_USER_MODEL, related_name="blocked_by", on_delete=models.CASCADE
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["user", "blocked"], name="one_block_per_pair")
        ]

    def __str__(self) -> str:
        return f"{self.user} blocks {self.blocked}"
