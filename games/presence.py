"""Who has a table's page open: a mark in the shared cache per (table, account), set when
the page's socket opens and at each of its heartbeats (``PING_EVERY``, 20 s, in
static/js/table/stream.js), dropped when it closes. A mark outlives a heartbeat's gap, so
a page killed without closing its socket counts as open for ``SECONDS`` at most. Read
by the players app before it mails "your turn" (players/mail.py)."""

from __future__ import annotations

import logging
import uuid

from django.core.cache import cache

log = logging.getLogger(__name__)
SECONDS = 60


def _key(game_id: uuid.UUID | str, user_id: int) -> str:
    return f"open-page:{game_id}:{user_id}"


async def page_seen(game_id: uuid.UUID | str, user_id: int | None) -> None:
    """The account's page on the table is open (its socket opened or beat)."""
    if user_id is None:
        return
    try:
        await cache.aset(_key(game_id, user_id), 1, SECONDS)
    except Exception:  # the cache down costs an email too many, never the socket
        log.warning("presence of %s at %s not recorded", user_id, game_id, exc_info=True)


async def page_closed(game_id: uuid.UUID | str, user_id: int | None) -> None:
    if user_id is None:
        return
    try:
        await cache.adelete(_key(game_id, user_id))
    except Exception:  # the mark expires by itself
        log.warning("presence of %s at %s not cleared", user_id, game_id, exc_info=True)


def has_open_page(game_id: uuid.UUID | str, user_id: int) -> bool:
    """True when the account's page on the table is open (as far as the cache knows;
    a cache that cannot answer counts as "no page": the player is mailed)."""
    try:
        return bool(cache.get(_key(game_id, user_id)))
    except Exception:
        log.warning("presence of %s at %s unknown", user_id, game_id, exc_info=True)
        return False
