"""Reading the moderation record."""

from __future__ import annotations

from community.models import ModerationRecord

Action = ModerationRecord.Action


def record_of(action: str) -> ModerationRecord:
    return ModerationRecord.objects.get(action=action)
