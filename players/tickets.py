"""WebSocket tickets: how an API client (token, no session cookie) opens a socket as
itself.

``POST /api/auth/ws-ticket/`` gives a random ticket, good once and for
``WS_TICKET_SECONDS``; the client connects with ``?ticket=...``. A socket that names a
ticket which is unknown, used or expired is closed with ``4401``, never served as a
spectator; one whose ticket cannot be looked up (Redis down), or that Redis or PostgreSQL
fails before it is accepted, with ``1013``, try again later. Tickets live in the cache (Redis in production) under their SHA-256, so a
look at the cache gives nothing a client could use.
"""

from __future__ import annotations

import hashlib
import secrets
from typing import Any
from urllib.parse import parse_qs

from channels.db import database_sync_to_async
from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.models import AbstractBaseUser
from django.core.cache import cache

from kingdom.ops.unavailable import (
    TRY_AGAIN_LATER,
    UNAVAILABLE,
    dependency_down,
    refuse_socket,
    serve_socket,
)

INVALID_TICKET = 4401


def _key(ticket: str) -> str:
    return "ws-ticket:" + hashlib.sha256(ticket.encode()).hexdigest()


def issue(user: AbstractBaseUser) -> str:
    ticket = secrets.token_urlsafe(32)
    cache.set(_key(ticket), user.pk, timeout=settings.WS_TICKET_SECONDS)
    return ticket


def redeem(ticket: str) -> AbstractBaseUser | None:
    """The ticket's user, once: of two sockets racing with one ticket, only the one
    whose delete removed the key gets the user. None for an unknown, used or expired
    ticket, or an account banned since."""
    key = _key(ticket)
    user_id = cache.get(key)
    if user_id is None or not cache.delete(key):
        return None
    return get_user_model().objects.filter(pk=user_id, is_active=True).first()


def _ticket_in(scope: dict[str, Any]) -> str | None:
    # keep_blank_values: an empty "?ticket=" is a bad ticket, not no ticket.
    query = parse_qs(scope.get("query_string", b"").decode("latin1"), keep_blank_values=True)
    values = query.get("ticket")
    return values[0] if values else None


class TicketAuthMiddleware:
    """Sockets that carry ``?ticket=`` go to ``ticketed`` as the ticket's user; the
    others to ``browser`` (the Origin check and the session cookie). A ticket is not sent
    by the browser on its own, as a cookie is, so a cross-site page cannot borrow one:
    ticketed sockets need no Origin header (non-browser clients send none)."""

    def __init__(self, *, browser: Any, ticketed: Any) -> None:
        self.browser = browser
        self.ticketed = ticketed

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        ticket = _ticket_in(scope) if scope["type"] == "websocket" else None
        if ticket is None:
            return await serve_socket(self.browser, scope, receive, send)
        try:
            user = await database_sync_to_async(redeem)(ticket)
        except Exception as exc:
            if not dependency_down(exc):
                raise
            return await refuse_socket(receive, send, UNAVAILABLE, TRY_AGAIN_LATER)
        if user is None:
            return await refuse_socket(receive, send, INVALID, INVALID_TICKET)
        scope = {**scope, "user": user, "ticketed": True}
        return await serve_socket(self.ticketed, scope, receive, send)


INVALID = {
    "code": "invalid_ticket",
    "message": "This ticket is unknown, used or expired: ask for a new one.",
}
