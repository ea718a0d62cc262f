"""One thread hop per request under ASGI.

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
sent, as Django does, since closing it first would close the file it streams.

Django's handler also cancels an async view when the client goes away. A sync view in a
thread cannot be cancelled, so this handler does not listen for the disconnect; the
server drops the unsent answer. Async views would still work (Django's sync path runs them
with async_to_sync); this service has none.
"""

from __future__ import annotations

from typing import Any

import django
from asgiref.sync import sync_to_async
from django.core import signals
from django.core.exceptions import RequestAborted
from django.core.handlers.asgi import ASGIHandler, get_script_prefix
from django.http import FileResponse, HttpResponseBase
from django.urls import set_script_prefix


class SyncChainASGIHandler(ASGIHandler):
    def __init__(self) -> None:
        super().__init__()
        # Made once: building a SyncToAsync (its checks, update_wrapper) per request cost
        # about what calling it does; a call keeps no state on the wrapper.
        self._respond_in_thread = sync_to_async(self.respond, thread_sensitive=True)

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
        set_script_prefix(get_script_prefix(scope))
        try:
            response = await self._respond_in_thread(scope, body_file)
            await self.send_response(response, send)
            if response.streaming:
                await sync_to_async(response.close, thread_sensitive=True)()
        finally:
            body_file.close()

    def respond(self, scope: dict, body_file: Any) -> HttpResponseBase:
        """The request's whole sync part: started signal, middleware and view, and (unless
        it streams) the response's close, which sends ``request_finished``."""
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
