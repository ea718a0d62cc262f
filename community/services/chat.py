"""Table chat: post a message, report one. Moderation of chat is in moderation.py."""

from __future__ import annotations

import uuid
from datetime import timedelta

from django.contrib.auth.models import User
from django.db import IntegrityError, transaction
from django.utils import timezone

from community import publish
from community.models import ChatMessage, Mute, Report
from games import json_input
from games.errors import Forbidden, NotFound, ServiceError
from games.models import Game

MAX_LENGTH = 500
# At most BURST messages per player in any WINDOW (flood control).
BURST, WINDOW = 5, timedelta(seconds=10)


def _require_player(user: User | None) -> None:
    if user is None or not user.is_authenticated or not user.is_active:
        raise Forbidden("not_authenticated", "Log in to chat.")


def chat_post(*, game_id: uuid.UUID | str, user: User, body: str) -> ChatMessage:
    _require_player(user)
    try:
        game = Game.objects.get(pk=game_id)
    except (Game.DoesNotExist, ValueError, TypeError) as exc:
        raise NotFound("not_found", "No such table.") from exc
    text = body.strip() if isinstance(body, str) else ""
    if not text or len(text) > MAX_LENGTH:
        raise ServiceError("bad_message", f"A message has 1 to {MAX_LENGTH} characters.")
    if json_input.bad_text(text):
        raise ServiceError(
            "bad_message", "A message may not hold NUL characters or lone surrogates."
        )
    mute = Mute.active().filter(user=user).order_by("-until").first()
    if mute is not None:
        until = f" until {mute.until:%Y-%m-%d %H:%M} UTC" if mute.until else ""
        raise Forbidden("muted", f"A moderator muted you{until}.")
    recent = ChatMessage.objects.filter(author=user, created_at__gte=timezone.now() - WINDOW)
    if recent.count() >= BURST:
        raise ServiceError("slow_down", "You are sending messages too fast.", status=429)
    with transaction.atomic():
        message = ChatMessage.objects.create(game=game, author=user, body=text)
        transaction.on_commit(lambda: publish.chat_posted(game.id, message.pk))
    return message


def chat_report(*, message_id: int, user: User, reason: str = "") -> Report:
    """Report a message to the moderators (once per reporter while the report is open)."""
    _require_player(user)
    message = ChatMessage.objects.filter(pk=message_id, hidden=False).first()
    if message is None:
        raise NotFound("not_found", "No such message.")
    if message.author_id == user.pk:
        raise ServiceError("own_message", "You cannot report your own message.")
    if json_input.bad_text(reason or ""):
        raise ServiceError(
            "bad_message", "A reason may not hold NUL characters or lone surrogates."
        )
    existing = Report.objects.filter(message=message, reporter=user, status=Report.Status.OPEN)
    if found := existing.first():
        return found
    try:
        with transaction.atomic():
            return Report.objects.create(
                message=message, reporter=user, reason=(reason or "").strip()[:500]
            )
    except IntegrityError:  # the same reporter twice at once
        return existing.get()
