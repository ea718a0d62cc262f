"""One thread hop per request under ASGI, on a reused thread.

Django adapts each middleware to the mode of the handler below it, and under ASGI the
innermost handler is async: every ``MiddlewareMixin`` above it (session, CSRF, auth...)
then ran in async mode, hopping to a thread and back for each ``process_request`` and
``process_response``, about a dozen hops per request. A sync-only middleware innermost
made the chain run in one thread, but still went back to the event loop below it and
into the thread again for the (sync) view: AsyncToSync and SyncToAsync once more each,
~7% of a loaded server's samples (py-spy). Over HTTP, 2 processes and 16 tables, building
the chain in sync mode measured 4.7–4.9 v 4.9–5.4 ms of CPU per move (``bench live``,
three pairs).

Django's ``ASGIHandler.handle`` then still entered a thread three times per request: for
``request_started``'s receivers (``close_old_connections``), for the chain, and for
``response.close()`` (``request_finished``, which hands the connection back to the pool).
Each entry is an executor submit, a wake-up of the thread and one of the loop, ~2% of a
loaded server's samples. This handler does all three in the one entry, and sends the
response afterwards. A streaming response (whitenoise's files) is closed after it is
sent, in the same thread, as Django does, since closing it first would close the file it
streams.

The thread: Django gives each request a thread of its own (a ``ThreadSensitiveContext``
that starts a thread and joins it afterwards, ~6% of a loaded server's CPU). This handler
hands each request a one-thread executor from a pool of idle ones instead, and submits
the request's sync part to it directly with a copy of the loop's context, as asgiref's
``SyncToAsync`` would, without its per-call bookkeeping (a lock-guarded ``Local`` lookup,
context restoring, a shield; 10% of a loaded server's samples were under its ``__call__``).
The thread still knows the server's loop, as ``SyncToAsync`` tells it, so an
``async_to_sync`` inside a request (``/readyz``'s channel-layer probe) runs there.
Database connections stay per thread and go back to the pool at the end of each request
(``CONN_MAX_AGE=0``), so a reused thread carries nothing over; neither do the context's
values (script prefix, urlconf, translation), which live in the request's copy.

Django's handler also cancels an async view when the client goes away. A sync view in a
thread cannot be cancelled, so this handler does not listen for the disconnect; the
server drops the unsent answer. Async views would still work (Django's sync path runs them
with async_to_sync); this service has none.
"""

from __future__ import annotations

import asyncio
import contextvars
import os
import threading
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import django
from asgiref.sync import SyncToAsync, sync_to_async
from django.core import signals
from django.core.exceptions import RequestAborted
from django.core.handlers.asgi import ASGIHandler, get_script_prefix
from django.http import FileResponse, HttpResponseBase
from django.urls import set_script_prefix

# Idle request threads kept for reuse; a burst beyond it starts threads as Django did.
KEEP_IDLE = 64


class RequestThreads:
    """One-thread executors, reused: a request's sync code runs in one thread, its own
    while the request lasts."""

    def __init__(self, keep: int = KEEP_IDLE) -> None:
        self._idle: list[ThreadPoolExecutor] = []
        self._keep = keep
        self._lock = threading.Lock()

    def take(self) -> ThreadPoolExecutor:
        with self._lock:
            if self._idle:
                return self._idle.pop()
        return ThreadPoolExecutor(max_workers=1, thread_name_prefix="request")

    def give_back(self, executor: ThreadPoolExecutor) -> None:
        with self._lock:
            if len(self._idle) < self._keep:
                self._idle.append(executor)
                return
        executor.shutdown(wait=False)


class SyncChainASGIHandler(ASGIHandler):
    def __init__(self) -> None:
        super().__init__()
        self.threads = RequestThreads()

    def load_middleware(self, is_async: bool = False) -> None:
        # The chain stays sync: ``respond`` calls it in the request's thread.
        super().load_middleware(is_async=False)

    async def get_response_async(self, request: Any) -> HttpResponseBase:
        return await sync_to_async(self.get_response, thread_sensitive=True)(request)

    async def handle(self, scope: dict, receive: Any, send: Any) -> None:
        try:
            body_file = await self.read_body(receive)
        except RequestAborted:
            return
        loop = asyncio.get_running_loop()
        executor = self.threads.take()
        try:
            run = contextvars.copy_context().run
            response = await loop.run_in_executor(
                executor, run, self.respond, loop, scope, body_file
            )
            await self.send_response(response, send)
            if response.streaming:
                await loop.run_in_executor(executor, response.close)
        finally:
            body_file.close()
            self.threads.give_back(executor)

    def respond(
        self, loop: asyncio.AbstractEventLoop, scope: dict, body_file: Any
    ) -> HttpResponseBase:
        """The request's whole sync part: started signal, middleware and view, and (unless
        it streams) the response's close, which sends ``request_finished``."""
        # What SyncToAsync tells its threads: where an async_to_sync in here runs.
        SyncToAsync.threadlocal.main_event_loop = loop
        SyncToAsync.threadlocal.main_event_loop_pid = os.getpid()
        set_script_prefix(get_script_prefix(scope))
        signals.request_started.send(sender=self.__class__, scope=scope)
        request, response = self.create_request(scope, body_file)
        if request is not None:
            response = self.get_response(request)
            response._handler_class = self.__class__
            if isinstance(response, FileResponse):
                response.block_size = self.chunk_size
        if not response.streaming:
            response.close()
        return response


def get_asgi_application() -> SyncChainASGIHandler:
    """``django.core.asgi.get_asgi_application`` with the one-hop handler."""
    django.setup(set_prefix=False)
    return SyncChainASGIHandler()
