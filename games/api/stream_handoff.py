"""An open NDJSON stream's lines, sent from outside Django's ASGI handler (ASGI middleware).

Django's ASGI handler runs each request inside its own asgiref ``ThreadSensitiveContext``,
so the request's sync work (the ``request_started`` receivers, the middleware chain, a
DRF view) runs in a thread of that request's own, and the thread lives until the response
has been sent. For a bot's stream, open for hours, that is a thread per stream: measured,
72 KB of a 104 KB idle stream, and the same 72 KB for a bare async view that streams
nothing (docs/performance.md, "Idle bot-API streams").

So a stream is answered in two parts. Django answers the request as any other: every
middleware, DRF's authentication and checks, JSON refusals, the head with its headers.
The view's ``StreamingHttpResponse`` iterates ``handed_off(lines)``: under this middleware
that is empty, so Django's handler finishes at once, its thread ends; the middleware then
sends ``lines`` itself on the same connection, as the rest of that response's body, until
they end or the client hangs up. Without this middleware (WSGI, Django's test client)
``handed_off`` gives the lines back and Django streams them, as Django does.

The view learns of the middleware through a context variable: asgiref runs sync code in
a copy of the caller's context, so the view, in its thread, fills the slot the
middleware made.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator, Awaitable, Callable, Mapping
from contextvars import ContextVar
from typing import Any

Scope = dict[str, Any]
Message = dict[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Mapping[str, Any]], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]

# The streams' paths (games/api/urls.py).
STREAM_PATHS = ("/api/stream/", "/api/bot/game/stream/")


class _Slot:
    """Where a view leaves its lines for the middleware."""

    lines: AsyncIterator[bytes] | None = None


_SLOT: ContextVar[_Slot | None] = ContextVar("kingdom_stream_slot", default=None)


async def _nothing() -> AsyncIterator[bytes]:
    return
    yield  # an async generator that yields nothing


def handed_off(lines: AsyncIterator[bytes]) -> AsyncIterator[bytes]:
    """What a stream's ``StreamingHttpResponse`` iterates: nothing when this request came
    through ``StreamHandoff`` (it sends ``lines`` once Django is done), else ``lines``."""
    slot = _SLOT.get()
    if slot is None:
        return lines
    slot.lines = lines
    return _nothing()


class StreamHandoff:
    """Wraps the HTTP application; only the streams' paths are looked at."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or not scope["path"].startswith(STREAM_PATHS):
            await self.app(scope, receive, send)
            return
        slot = _Slot()
        hung_up = False

        async def receive_after_a_hang_up() -> Message:
            # ASGI answers every receive() after a hang-up with a disconnect, but a server
            # may deliver it once (daphne does), and Django's handler listens for it while
            # the view runs: the lines that follow must hear it too, or a stream whose
            # client left then goes on for good.
            nonlocal hung_up
            if hung_up:
                return {"type": "http.disconnect"}
            message = await receive()
            hung_up = message["type"] == "http.disconnect"
            return message

        async def send_but_the_end(message: Mapping[str, Any]) -> None:
            # Django's last, empty body message would end the response: the lines are
            # still to come.
            ending = message["type"] == "http.response.body" and not message.get("more_body")
            if not (ending and slot.lines is not None):
                await send(message)

        token = _SLOT.set(slot)
        try:
            await self.app(scope, receive_after_a_hang_up, send_but_the_end)
        finally:
            _SLOT.reset(token)
        if slot.lines is not None:
            await stream(slot.lines, receive_after_a_hang_up, send)


async def stream(lines: AsyncIterator[bytes], receive: Receive, send: Send) -> None:
    """Send each line as the rest of the response's body until the lines end (then end
    the response) or the client hangs up (then close the lines: their ``finally`` leaves
    the channel layer's groups)."""

    async def each_line() -> None:
        async for line in lines:
            await send({"type": "http.response.body", "body": line, "more_body": True})

    async def hung_up() -> None:
        while (await receive())["type"] != "http.disconnect":
            pass

    sending = asyncio.ensure_future(each_line())
    listening = asyncio.ensure_future(hung_up())
    try:
        done, _ = await asyncio.wait({sending, listening}, return_when=asyncio.FIRST_COMPLETED)
    finally:
        listening.cancel()
        sending.cancel()
        try:
            with contextlib.suppress(asyncio.CancelledError):
                await sending  # a failure in the lines is raised here, for the server's log
        finally:
            aclose = getattr(lines, "aclose", None)
            if aclose is not None:
                await aclose()
    if sending in done:  # the lines ended (a game's result, a signed-out account)
        await send({"type": "http.response.body", "body": b"", "more_body": False})
