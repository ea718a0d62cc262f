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
from django.contrib.auth.models import User
from django.core.cache import cache
from rest_framework.authtoken.models import Token

from games import publishing
from infra.unavailable import (
    TRY_AGAIN_LATER,
    UNAVAILABLE,
    dependency_down,
    refuse_socket,
    serve_socket,
)

INVALID_TICKET = 4401


def _key(ticket: str) -> str:
    return "ws-ticket:" + hashlib.sha256(ticket.encode()).hexdigest()


def issue(user: User, *, token_key: str | None = None, session_key: str | None = None) -> str:
    """A ticket for ``user``, minted by the API token ``token_key`` or by the browser
    session ``session_key``; it is good only while that holds (``redeem``,
    ``revoke_session_tickets``)."""
    ticket = secrets.token_urlsafe(32)
    minted_by = {
        "user": user.pk,
        "token": _digest(token_key),
        "session_group": publishing.session_group(session_key) if session_key else None,
    }
    cache.set(_key(ticket), minted_by, timeout=settings.WS_TICKET_SECONDS)
    if session_key:
        index = _session_index(session_key)
        cache.set(index, [*cache.get(index, []), _key(ticket)], settings.WS_TICKET_SECONDS)
    return ticket


def revoke_session_tickets(session_key: str) -> None:
    """The session ended (a logout): the tickets it minted and nobody used yet die too."""
    index = _session_index(session_key)
    cache.delete_many([*cache.get(index, []), index])


def _session_index(session_key: str) -> str:
    return "ws-tickets-of:" + hashlib.sha256(session_key.encode()).hexdigest()


def _digest(credential: str | None) -> str | None:
    return None if credential is None else hashlib.sha256(credential.encode()).hexdigest()


def redeem(ticket: str) -> tuple[User, str | None] | None:
    """The ticket's user and the sign-in group of the session that minted it (None: an
    API token did), once: of two sockets racing with one ticket, only the one whose
    delete removed the key gets the user. None for an unknown, used or expired ticket,
    an account deactivated since, or a token revoked since the ticket was minted."""
    key = _key(ticket)
    minted_by = cache.get(key)
    if not isinstance(minted_by, dict) or not cache.delete(key):
        return None
    user = get_user_model().objects.filter(pk=minted_by["user"], is_active=True).first()
    if user is None:
        return None
    if minted_by["token"] is not None:
        keys = Token.objects.filter(user=user).values_list("key", flat=True)
        if minted_by["token"] not in {_digest(k) for k in keys}:
            return None
    return user, minted_by["session_group"]


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
            redeemed = await database_sync_to_async(redeem)(ticket)
        except Exception as exc:
            if not dependency_down(exc):
                raise
            return await refuse_socket(receive, send, UNAVAILABLE, TRY_AGAIN_LATER)
        if redeemed is None:
            return await refuse_socket(receive, send, INVALID, INVALID_TICKET)
        user, session_group = redeemed
        ticketed = {**scope, "user": user, "ticketed": True, "session_group": session_group}
        return await serve_socket(self.ticketed, ticketed, receive, send)


INVALID = {
    "code": "invalid_ticket",
    "message": "This ticket is unknown, used or expired: ask for a new one.",
}
