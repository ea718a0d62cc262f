"""The API's rate limits applied to a socket's writes (a move, a chat line): the same
configured DRF throttles (``DEFAULT_THROTTLE_CLASSES``) and scopes as the REST views, so
a socket is never a way around them."""

from __future__ import annotations

from typing import Any, Protocol, runtime_checkable

from rest_framework.settings import api_settings

from games.errors import ServiceError
from infra.unavailable import RETRY_AFTER, UNAVAILABLE, dependency_down


@runtime_checkable
class UserWriteThrottle(Protocol):
    """A configured DRF throttle that also counts a write without a request."""

    def allow_user_write(self, scope: str, user: Any) -> bool: ...

    def wait(self) -> float | None: ...


def refuse_if_throttled(scope: str, user: Any) -> None:
    """Count one write of ``user`` in ``scope``: ``ServiceError("throttled")`` (429, with
    ``retry_after``) when over the limit; ``ServiceError("unavailable")`` (503) when the
    counts cannot be read (Redis down), as a REST write answers then. A socket has no
    request for DRF's ``allow_request``: the configured throttles count a signed-in
    player's write through their ``allow_user_write`` (players/throttles.py)."""
    for throttle_class in api_settings.DEFAULT_THROTTLE_CLASSES:
        # DRF's settings import the dotted paths; its stubs leave them strings.
        throttle = throttle_class()  # type: ignore[operator]
        if not isinstance(throttle, UserWriteThrottle):
            continue
        try:
            allowed = throttle.allow_user_write(scope, user)
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
