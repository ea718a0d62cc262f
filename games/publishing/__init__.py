"""What goes out after commit: telling live connections that something changed.

A game's message (``game.advanced``) carries its new head seq and each audience's update,
computed once by the writer (games/publishing/news.py). A socket that cannot use it (it
missed a message, or the write published none) reads the events after its own last seq
through the read path. The channel layer is at-most-once, so a lost message costs latency,
never data: the next one, or the client's gap check, catches up by seq.

Every function here is called after commit only (``transaction.on_commit``).
"""

from __future__ import annotations

import asyncio
import hashlib
import logging
import os
import threading
import uuid
from typing import Any

from asgiref.sync import async_to_sync
from channels.layers import InMemoryChannelLayer, get_channel_layer

log = logging.getLogger(__name__)
LOBBY_GROUP = "lobby"

# The in-memory layer's queues belong to the server's event loop; a publish from a plain
# thread (the embedded bot runner) must run its coroutine on that loop.
_server_loop: asyncio.AbstractEventLoop | None = None
# How long a write's thread waits for the channel layer to take a message.
PUBLISH_WAIT = 5.0


def remember_server_loop() -> None:
    """Called by each consumer as it connects: the loop the in-memory layer lives on."""
    global _server_loop
    _server_loop = asyncio.get_running_loop()


def game_group(game_id: uuid.UUID | str) -> str:
    return f"game.{game_id}"


class _PublishingLoop:
    """An event loop in a daemon thread of its own, where this process's group messages
    are sent: a Redis layer then keeps one connection for them, where ``async_to_sync``
    from a plain thread (a Celery worker, the embedded bot runner) would start a loop,
    and so a connection, per message. A forked child (Celery's pool) starts its own."""

    def __init__(self) -> None:
        self.pid = os.getpid()
        self.loop = asyncio.new_event_loop()
        threading.Thread(target=self.loop.run_forever, name="publishing", daemon=True).start()


_publishing: _PublishingLoop | None = None
_publishing_lock = threading.Lock()


def _publishing_loop() -> asyncio.AbstractEventLoop:
    global _publishing
    with _publishing_lock:
        if _publishing is None or _publishing.pid != os.getpid():
            _publishing = _PublishingLoop()
        return _publishing.loop


def _running_loop() -> asyncio.AbstractEventLoop | None:
    try:
        return asyncio.get_running_loop()
    except RuntimeError:
        return None


def send_to_group(group: str, message: dict[str, Any]) -> None:
    """Send ``message`` to ``group`` through the channel layer's ``group_send`` and wait
    (at most ``PUBLISH_WAIT``) until the layer took it, so a game's heads go out in the
    order they were written; a failure is logged (the log is committed; a lost notice is
    recovered by seq). Called from sync code only (after commit)."""
    layer = get_channel_layer()
    if layer is None:
        return
    try:
        if isinstance(layer, InMemoryChannelLayer):
            loop = _server_loop
            if loop is None or not loop.is_running():
                async_to_sync(layer.group_send)(group, message)
                return
        else:
            loop = _publishing_loop()
        if _running_loop() is loop:  # called on that loop itself: it cannot wait there
            loop.create_task(layer.group_send(group, message))
            return
        asyncio.run_coroutine_threadsafe(layer.group_send(group, message), loop).result(
            timeout=PUBLISH_WAIT
        )
    except Exception:
        log.exception("could not publish to %s", group)


def game_advanced(game_id: uuid.UUID, head_seq: int, news: dict[str, Any] | None = None) -> None:
    """The game's head moved to ``head_seq``; ``news``: each audience's update
    (games/publishing/news.py ``for_head``)."""
    message: dict[str, Any] = {"type": "game.advanced", "head": head_seq}
    if news is not None:
        message["news"] = news
    send_to_group(game_group(game_id), message)


def rematch_opened(game_id: uuid.UUID, rematch: dict[str, Any] | None) -> None:
    """Tell a finished game's sockets that one of its players opened a rematch
    (``selectors.rematch_offer``): the others are shown the way to it."""
    if rematch is not None:
        send_to_group(game_group(game_id), {"type": "game.rematch", "rematch": rematch})


def sign_in_group(scope: dict[str, Any]) -> str | None:
    """The group of what a socket was opened as: its browser session, or (a ticketed
    socket, an API client's) its account's API access; None for an anonymous socket."""
    user = scope.get("user")
    if user is None or not user.is_authenticated:
        return None
    if scope.get("ticketed"):  # players/tickets.py: minted by a session, or by a token
        return scope.get("session_group") or api_group(user.pk)
    session_key = getattr(scope.get("session"), "session_key", None)
    return session_group(session_key) if session_key else api_group(user.pk)


def session_group(session_key: str) -> str:
    # Hashed: a group name is seen by every process, a session key is a credential.
    return f"signed-in.session.{hashlib.sha256(session_key.encode()).hexdigest()[:40]}"


def api_group(user_id: int) -> str:
    return f"signed-in.api.{user_id}"


def signed_out(group: str) -> None:
    """Close the sockets opened as a session that ended (a logout), by an API client whose
    token was revoked, or by an account that was deactivated: what they were opened as no
    longer holds."""
    send_to_group(group, {"type": "signed.out"})


def account_closed(user_id: int) -> None:
    """Close every socket of an account that was deactivated (or banned)."""
    send_to_group(account_group(user_id), {"type": "signed.out"})


def account_group(user_id: int) -> str:
    return f"signed-in.account.{user_id}"


def lobby_changed(game_id: uuid.UUID) -> None:
    send_to_group(LOBBY_GROUP, {"type": "lobby.changed", "game": str(game_id)})


def streams_closed(game_id: uuid.UUID) -> None:
    """Ask every socket of a game to close (clients reconnect and catch up by seq)."""
    send_to_group(game_group(game_id), {"type": "game.closed"})
