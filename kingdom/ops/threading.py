"""One thread hop per request under ASGI.

Django adapts each middleware to the mode of the handler below it, and under ASGI the
innermost handler is async: every ``MiddlewareMixin`` above it (session, CSRF, auth...)
then ran in async mode, hopping to a thread and back for each ``process_request`` and
``process_response``, about a dozen hops per request. A sync-only middleware innermost
made the chain run in one thread, but still went back to the event loop below it and
into the thread again for the (sync) view: AsyncToSync and SyncToAsync once more each,
~7% of a loaded server's samples (py-spy). Over HTTP, 2 processes and 16 tables, this
handler measured 4.7–4.9 v 4.9–5.4 ms of CPU per move (``bench live``, three pairs).

This handler builds the chain as a WSGI server would (every middleware and the view in
sync mode) and adapts its top once: the request enters one thread, runs the middleware,
the view and the ORM there, and comes back with its response. Async views would still
work (Django's sync path runs them with async_to_sync); this service has none.
"""

from __future__ import annotations

import django
from django.core.handlers.asgi import ASGIHandler


class SyncChainASGIHandler(ASGIHandler):
    def load_middleware(self, is_async: bool = False) -> None:
        super().load_middleware(is_async=False)
        self._middleware_chain = self.adapt_method_mode(True, self._middleware_chain, False)


def get_asgi_application() -> SyncChainASGIHandler:
    """``django.core.asgi.get_asgi_application`` with the one-hop handler."""
    django.setup(set_prefix=False)
    return SyncChainASGIHandler()
