"""The middleware chain in one thread under ASGI, by Django's own rule.

Django builds its middleware chain from the innermost handler outwards and runs each
middleware in the mode of the one inside it where it can (Django's docs, "Asynchronous
support" of middleware). Under ASGI the innermost handler is async, so every
``MiddlewareMixin`` (sessions, CSRF, authentication...) ran in async mode, each hopping to
a thread and back for its ``process_request`` and ``process_response``: a dozen thread
hops per request. This middleware, innermost and sync-only, puts the whole chain in sync
mode: one hop into a thread for the chain, then Django's own adapter for the view.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.http import HttpRequest, HttpResponseBase


class SyncChainMiddleware:
    sync_capable = True
    async_capable = False

    def __init__(self, get_response: Callable[[HttpRequest], Any]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponseBase:
        return self.get_response(request)
