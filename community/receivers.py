"""The record of staff actions that games announces (games.signals.staff_acted)."""

from __future__ import annotations

from typing import Any

from django.dispatch import receiver

from community.services.moderation import record
from games import signals


@receiver(signals.staff_acted, dispatch_uid="community.record_staff_action")
def record_staff_action(*, moderator: Any, action: str, reason: str, **about: Any) -> None:
    # Sent inside games' transaction: a failed write rolls the game's change back too.
    record(
        moderator,
        action,
        reason,
        game=about["game"],
        target_user=about.get("target_user"),
        event_seq=about.get("event_seq"),
    )
