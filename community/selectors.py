"""The read path of chat, reports and the moderation record."""

from __future__ import annotations

from typing import Any

from django.db.models import QuerySet

from community.models import ChatMessage, ModerationRecord, Report
from games.models import Game
from players import selectors as player_selectors

CHAT_HISTORY = 100


def chat_message_json(message: ChatMessage) -> dict[str, Any]:
    """A chat line as everyone sees it; a hidden one keeps only its id (clients drop it).
    An author who is a bot account is marked as one (``bot_account``), as at the table's
    seats: read with the author when the message was read by ``chat_message`` or
    ``chat_history``."""
    if message.hidden:
        return {"id": message.pk, "hidden": True}
    return {
        "id": message.pk,
        "author": message.author.username,
        "bot_account": player_selectors.is_bot(message.author),
        "body": message.body,
        "created_at": message.created_at.isoformat(),
        "hidden": False,
    }


def chat_history(game: Game, limit: int = CHAT_HISTORY) -> list[dict[str, Any]]:
    """The last ``limit`` visible messages of a table, oldest first."""
    rows = (
        ChatMessage.objects.filter(game=game, hidden=False)
        .select_related("author__bot_account")
        .order_by("-created_at", "-id")[:limit]
    )
    return [chat_message_json(m) for m in reversed(list(rows))]


def chat_message(message_id: int) -> ChatMessage | None:
    return ChatMessage.objects.select_related("author__bot_account").filter(pk=message_id).first()


def report_json(report: Report) -> dict[str, Any]:
    message = report.message
    return {
        "id": report.pk,
        "status": report.status,
        "reason": report.reason,
        "reporter": report.reporter.username,
        "created_at": report.created_at.isoformat(),
        "message": {
            "id": message.pk,
            "author": message.author.username,
            "body": message.body,
            "hidden": message.hidden,
            "created_at": message.created_at.isoformat(),
        },
        "game": str(message.game_id),
        "audit_url": f"/tables/{message.game_id}/audit/",
        "handled_by": report.handled_by.username if report.handled_by is not None else None,
        "note": report.note,
    }


def moderation_queue(status: str) -> QuerySet[Report]:
    """Reports of one status, oldest first (id: a fixed order among reports made
    together, so pages neither repeat nor skip one); ``report_json`` shapes each."""
    return (
        Report.objects.filter(status=status)
        .select_related("message__author", "reporter", "handled_by")
        .order_by("created_at", "id")
    )


def moderation_records(
    *, game: Game | None = None, username: str | None = None
) -> QuerySet[ModerationRecord]:
    """The record, newest first, of one game or one player if asked; ``record_json``
    shapes each."""
    records = ModerationRecord.objects.select_related("target_user").order_by("-created_at", "-id")
    if game is not None:
        records = records.filter(game=game)
    if username:
        records = records.filter(target_user__username=username)
    return records


def record_json(record: ModerationRecord) -> dict[str, Any]:
    return {
        "id": record.pk,
        "action": record.action,
        "moderator": record.moderator_name,
        "reason": record.reason,
        "target": record.target_user.username if record.target_user is not None else None,
        "game": str(record.game_id) if record.game_id else None,
        "message": record.message_id,
        "report": record.report_id,
        "event_seq": record.event_seq,
        "created_at": record.created_at.isoformat(),
    }


def moderation_of(game: Game) -> list[dict[str, Any]]:
    """One game's record, oldest first, for its audit (audit.trail shows it)."""
    records = ModerationRecord.objects.filter(game=game).order_by("created_at", "id")
    return [
        {
            "action": r.action,
            "action_text": r.get_action_display(),
            "moderator": r.moderator_name,
            "reason": r.reason,
            "event_seq": r.event_seq,
            "created_at": r.created_at.isoformat(),
        }
        for r in records
    ]
