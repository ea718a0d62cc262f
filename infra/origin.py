"""The Origin check for sockets opened with the session cookie.

A browser sends the session cookie on a WebSocket opened by any page, so a socket that
authenticates by cookie must come from this site's own pages, as Django's CSRF check asks
of a POST: the Origin is exactly ``scheme://host`` of the connection (the same scheme,
host and port), or one of ``CSRF_TRUSTED_ORIGINS``. Channels' ``AllowedHostsOriginValidator``
only compares the host name, so another port or scheme of the same host passed.
Sockets opened with a ticket (players/tickets.py) do not come here: a ticket is never sent
by the browser on its own.
"""

from __future__ import annotations

from typing import Any

from channels.security.websocket import WebsocketDenier
from django.conf import settings
from django.http.request import split_domain_port, validate_host


def _header(scope: dict[str, Any], name: bytes) -> str | None:
    for key, value in scope.get("headers", []):
        if key == name:
            return value.decode("latin1")
    return None


def same_origin(scope: dict[str, Any]) -> bool:
    """True when the socket's Origin is this site as the connection names it, or trusted."""
    origin = _header(scope, b"origin")
    host = _header(scope, b"host")
    if not origin or not host:
        return False
    if origin in settings.CSRF_TRUSTED_ORIGINS:
        return True
    domain, _port = split_domain_port(host)
    if not domain or not validate_host(domain, settings.ALLOWED_HOSTS):
        return False
    scheme = "https" if scope.get("scheme") in {"wss", "https"} else "http"
    return origin == f"{scheme}://{host}"


class SameOriginValidator:
    """ASGI middleware: a socket whose Origin is not this site is refused before the app."""

    def __init__(self, application: Any) -> None:
        self.application = application

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> Any:
        if scope["type"] == "websocket" and not same_origin(scope):
            denier = WebsocketDenier()
            return await denier(scope, receive, send)
        return await self.application(scope, receive, send)
