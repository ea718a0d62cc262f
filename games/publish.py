"""Telling live connections that something changed (called after commit only).

A game's message carries its new head seq and, from the write path, each seated player's
update, redacted and viewed by the one read path (games/pushed_news.py); a consumer
that cannot use it reads the events after its own last seq (games/fanout.py). A lost
message costs nothing but latency: the next one (or the client's gap check) catches
up by seq.
"""

from __future__ import annotations

import asyncio
import hashlib
import logging
import uuid
from typing import Any

from asgiref.sync import async_to_sync
from channels.layers import InMemoryChannelLayer, get_channel_layer

from games.publisher import publisher

log = logging.getLogger(__name__)
LOBBY_GROUP = "lobby"

# The in-memory layer's queues belong to the server's event loop; a publish from a plain
# thread (the embedded bot worker) must run its coroutine on that loop.
_server_loop: asyncio.AbstractEventLoop | None = None


def remember_server_loop() -> None:
    global _server_loop
    _server_loop = asyncio.get_running_loop()


def game_group(game_id: uuid.UUID | str) -> str:
    return f"game.{game_id}"


def send_to_group(group: str, message: dict[str, Any]) -> None:
    """Also for other apps' groups (community's chat): one layer, one loop handling.
    Returns once the message is handed over, not sent (games/publisher.py)."""
    layer = get_channel_layer()
    if layer is None:
        return
    try:
        loop = _server_loop
        if not isinstance(layer, InMemoryChannelLayer):
            publisher().hand_over(layer, group, message)
        elif loop is not None and loop.is_running():
            asyncio.run_coroutine_threadsafe(layer.group_send(group, message), loop)
        else:
            async_to_sync(layer.group_send)(group, message)
    except Exception:  # the log is committed; a lost notice is recovered by seq
        log.exception("could not publish to %s", group)


def game_advanced(
    game_id: uuid.UUID,
    head_seq: int,
    pushed: dict[str, Any] | None = None,
    written: dict[str, Any] | None = None,
) -> None:
    """``pushed``: the write's update for each seated player (games/pushed_news.py);
    ``written``: what the other processes need to build on the head without reading it
    (games/services/own_heads.py), never sent on a socket."""
    message: dict[str, Any] = {"type": "game.advanced", "head": head_seq}
    if pushed is not None:
        message["pushed"] = pushed
    if written is not None and not isinstance(get_channel_layer(), InMemoryChannelLayer):
        message["written"] = written  # one process's memory: nobody else to hear it
    send_to_group(game_group(game_id), message)


def sign_in_group(scope: dict[str, Any]) -> str | None:
    """The group of what a socket was opened as: its browser session, or (a ticketed
    socket, an API client's) its account's API access; None for an anonymous socket."""
    user = scope.get("user")
    if user is None or not user.is_authenticated:
        return None
    session_key = (
        None if scope.get("ticketed") else getattr(scope.get("session"), "session_key", None)
    )
    return session_group(session_key) if session_key else api_group(user.pk)


def session_group(session_key: str) -> str:
    # Hashed: a group name is seen by every process, a session key is a credential.
    return f"signed-in.session.{hashlib.sha256(session_key.encode()).hexdigest()[:40]}"


def api_group(user_id: int) -> str:
    return f"signed-in.api.{user_id}"


def signed_out(group: str) -> None:
    """Close the sockets opened as a session that ended (a logout) or by an API client
    whose token was revoked: what they were opened as no longer holds."""
    send_to_group(group, {"type": "signed.out"})


def lobby_changed(game_id: uuid.UUID) -> None:
    send_to_group(LOBBY_GROUP, {"type": "lobby.changed", "game": str(game_id)})


def streams_closed(game_id: uuid.UUID) -> None:
    """Ask every socket of a game to close (clients reconnect and catch up by seq)."""
    send_to_group(game_group(game_id), {"type": "game.closed"})
