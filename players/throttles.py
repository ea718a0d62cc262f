"""Rate limits: DRF throttles counted in Django's cache (Redis in production, the
process's memory in the embedded mode).

A view opts in with ``throttle_scope``; only its writes count, so reading chat or a game
is never limited. The sign-up and login scopes count per client address (who is asking
does not matter to a password guesser); the others per player. A refusal is a 429 with
``Retry-After`` and ``{"code": "throttled", "message"}``.
"""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

from rest_framework.permissions import SAFE_METHODS
from rest_framework.settings import api_settings
from rest_framework.throttling import SimpleRateThrottle

PER_ADDRESS = {"signup", "login"}


class ScopedWriteThrottle(SimpleRateThrottle):
    scope: str | None = None

    def __init__(self) -> None:
        # SimpleRateThrottle reads its rate here, before it knows the view's scope.
        pass

    def allow_request(self, request: Any, view: Any) -> bool:
        self.scope = getattr(view, "throttle_scope", None)
        if not self.scope or request.method in SAFE_METHODS:
            return True
        self.rate = self.get_rate()
        self.num_requests, self.duration = self.parse_rate(self.rate)
        return super().allow_request(request, view)

    def get_rate(self) -> str | None:
        # Read at each request (not at import), so a changed setting applies at once.
        return api_settings.DEFAULT_THROTTLE_RATES.get(self.scope)

    def get_cache_key(self, request: Any, view: Any) -> str:
        user = getattr(request, "user", None)
        if self.scope not in PER_ADDRESS and user is not None and user.is_authenticated:
            ident = f"user-{user.pk}"
        else:
            ident = f"addr-{self.get_ident(request)}"
        return f"throttle:{self.scope}:{ident}"


def wait_seconds(scope: str, request: Any) -> int | None:
    """Count one write in ``scope`` outside DRF (the login and sign-up pages; sockets use
    games.api.throttling): the seconds to wait when over the limit, else None. ``request`` needs
    ``user`` and ``META``."""
    throttle = ScopedWriteThrottle()
    allowed = throttle.allow_request(
        SimpleNamespace(method="POST", user=request.user, META=request.META),
        SimpleNamespace(throttle_scope=scope),
    )
    return None if allowed else max(1, round(throttle.wait() or 1))
