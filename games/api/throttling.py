"""The API's rate limits applied to a socket's writes (a move, a chat line): the same
configured DRF throttles (``DEFAULT_THROTTLE_CLASSES``) and scopes as the REST views, so
a socket is never a way around them."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

from rest_framework.settings import api_settings

from games.errors import ServiceError
from infra.unavailable import RETRY_AFTER, UNAVAILABLE, dependency_down


def refuse_if_throttled(scope: str, user: Any) -> None:
    """Count one write of ``user`` in ``scope``: ``ServiceError("throttled")`` (429, with
    ``retry_after``) when over the limit; ``ServiceError("unavailable")`` (503) when the
    counts cannot be read (Redis down), as a REST write answers then."""
    request = SimpleNamespace(method="POST", user=user, META={})
    view = SimpleNamespace(throttle_scope=scope)
    for throttle_class in api_settings.DEFAULT_THROTTLE_CLASSES:
        # DRF's settings import the dotted paths; its stubs leave them strings.
        throttle = throttle_class()  # type: ignore[operator]
        try:
            allowed = throttle.allow_request(request, view)
        except Exception as exc:
            if not dependency_down(exc):
                raise
            raise ServiceError(
                UNAVAILABLE["code"], UNAVAILABLE["message"], 503, retry_after=RETRY_AFTER
            ) from exc
        if not allowed:
            wait = max(1, round(throttle.wait() or 1))
            raise ServiceError(
                "throttled",
                f"Too many requests: try again in {wait} seconds.",
                429,
                retry_after=wait,
            )
