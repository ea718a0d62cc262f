"""What goes out after commit: telling live connections that something changed.

A game's message (``game.advanced``) carries its new head seq and each audience's update,
computed once by the writer (games/publishing/news.py). A socket that cannot use it (it
missed a message, or the write published none) reads the events after its own last seq
through the read path. The channel layer is at-most-once, so a lost message costs latency,
never data: the next one, or the client's gap check, catches up by seq.

A write returns its messages as ``Notice``s. A socket that made the write awaits ``asend``
on its own event loop, and a REST move's are awaited on the request's loop
(games/api/middleware.py ``news_middleware``), so neither costs a thread hand-off for the
publish. Other sync code sends them after commit with ``send``: in a worker thread of the
ASGI server, through asgiref's ``async_to_sync`` onto the server's loop, as Channels
documents. A process's main thread that runs sync code (a Celery prefork worker, the
clock sweep, a management command) has no server loop; there asgiref's ``async_to_sync``
would make a new event loop in a new thread for every call, and channels_redis a new
Redis connection for each loop (1.1 ms of CPU a publish, measured, against 0.13 ms), so
that thread keeps one loop of its own for its publishes (``_main_thread_loop``).
"""

from __future__ import annotations

import asyncio
import atexit
import hashlib
import logging
import os
import threading
import uuid
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from asgiref.sync import async_to_sync
from channels.layers import InMemoryChannelLayer, get_channel_layer

log = logging.getLogger(__name__)
LOBBY_GROUP = "lobby"
# How long a plain thread waits for the embedded server's loop to take its messages.
PUBLISH_WAIT = 5.0

# The in-memory layer's queues belong to the server's event loop; a send from a plain
# thread (the embedded bot runner) must run on that loop. Only the embedded mode has one.
_server_loop: asyncio.AbstractEventLoop | None = None


@dataclass(frozen=True)
class Notice:
    """One channel-layer message to a group."""

    group: str
    message: dict[str, Any]


def remember_server_loop() -> None:
    """Called by each consumer as it connects: the loop the in-memory layer lives on."""
    global _server_loop
    _server_loop = asyncio.get_running_loop()


def game_group(game_id: uuid.UUID | str) -> str:
    return f"game.{game_id}"


async def asend(notices: Iterable[Notice]) -> None:
    """Send ``notices`` in order on the running loop; a failure is logged (the write is
    committed; a lost notice is recovered by seq)."""
    layer = get_channel_layer()
    if layer is None:
        return
    for notice in notices:
        try:
            await layer.group_send(notice.group, notice.message)
        except Exception:
            log.exception("could not publish to %s", notice.group)


def send(notices: Iterable[Notice]) -> None:
    """Send ``notices`` from sync code (after commit), in order."""
    notices = list(notices)
    layer = get_channel_layer()
    if layer is None or not notices:
        return
    try:
        if _called_from_loop():  # sync code run on a loop's own thread cannot wait on it
            asyncio.get_running_loop().create_task(asend(notices))
        elif isinstance(layer, InMemoryChannelLayer) and _server_loop_running():
            assert _server_loop is not None
            future = asyncio.run_coroutine_threadsafe(asend(notices), _server_loop)
            future.result(timeout=PUBLISH_WAIT)
        elif threading.current_thread() is threading.main_thread() and not isinstance(
            layer,
            InMemoryChannelLayer,  # its queues wake only their own loop's readers
        ):
            _main_thread_loop().run_until_complete(asend(notices))
        else:
            async_to_sync(asend)(notices)
    except Exception:
        log.exception("could not publish %s", [n.group for n in notices])


_own_loop: tuple[int, asyncio.AbstractEventLoop] | None = None


def _main_thread_loop() -> asyncio.AbstractEventLoop:
    """The main thread's own event loop for publishing from sync code, made once per
    process (a forked worker makes its own). It is not the thread's current loop
    (``asyncio.set_event_loop`` is not called), so nothing else finds it; it runs only
    while a publish does. Closed at exit, which lets channels_redis close its connection."""
    global _own_loop
    if _own_loop is None or _own_loop[0] != os.getpid() or _own_loop[1].is_closed():
        _own_loop = (os.getpid(), asyncio.new_event_loop())
        atexit.register(_own_loop[1].close)
    return _own_loop[1]


def _server_loop_running() -> bool:
    return _server_loop is not None and _server_loop.is_running()


def _called_from_loop() -> bool:
    """True on an event loop's own thread, which must not wait for that loop."""
    try:
        asyncio.get_running_loop()
    except RuntimeError:
        return False
    return True


def send_to_group(group: str, message: dict[str, Any]) -> None:
    """Send one message from sync code (after commit)."""
    send([Notice(group, message)])


def game_advanced(game_id: uuid.UUID, head_seq: int, news: dict[str, Any] | None = None) -> Notice:
    """The game's head moved to ``head_seq``; ``news``: each audience's update
    (games/publishing/news.py ``for_head``)."""
    message: dict[str, Any] = {"type": "game.advanced", "game": str(game_id), "head": head_seq}
    if news is not None:
        message["news"] = news
    return Notice(game_group(game_id), message)


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


def lobby_changed(game_id: uuid.UUID) -> Notice:
    return Notice(LOBBY_GROUP, {"type": "lobby.changed", "game": str(game_id)})


def streams_closed(game_id: uuid.UUID) -> None:
    """Ask every socket of a game to close (clients reconnect and catch up by seq)."""
    send_to_group(game_group(game_id), {"type": "game.closed"})
