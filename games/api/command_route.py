"""``POST /api/tables/<id>/commands/`` from an API client, answered before Django's request.

Why: bots and scripts move by POSTing here with ``Authorization: Token <key>``, and
Django's handler, its middleware chain and DRF's view around the write cost about a
third of such a move's server CPU: 2.1 v 1.5 ms a move over HTTP (``bench live``,
Kingdoms, 2 processes, 16 tables; the move's own work is the same either way). This
route runs the steps that view runs, with the same code, and nothing else: the
configured token authentication, the command's body rules (``valid_command``), the
"commands" rate limit, the one write path (``moves.submit`` → ``services.game_submit``)
and the view's own answer, in a worker thread as a move sent on the game socket is.

It takes only the plain case: a POST to the exact path with no query, a Content-Length
within ``API_MAX_BODY_BYTES`` and a JSON body, ``Token`` credentials and no session cookie
(DRF would authenticate that request by its session first), an Accept that takes plain
JSON, an allowed Host and, where HTTPS is required, a secure request. Anything else goes
to Django untouched, and so does every refusal before the write (a bad token, a body the
API guard or the serializer refuses, the rate limit), its body replayed: Django's answer
to those is the answer by construction. After the write the answer is the view's: the
body from ``moves.submit``, a ``ServiceError`` or a busy pool through the API's exception
handler, anything else a logged JSON 500. The headers are those Django's middleware and
DRF add to that answer. tests/games/api/test_command_route.py sends each case both ways
and compares status, body, headers and the game's log.
"""

from __future__ import annotations

import functools
import logging
import re
import time
import uuid
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

import structlog
from django.conf import settings
from django.db import connections
from django.http import parse_cookie
from django.http.request import split_domain_port, validate_host
from rest_framework import authentication, exceptions
from rest_framework.settings import api_settings
from rest_framework.utils import json as drf_json

from games import json_input, json_output
from games.api import moves, serializers
from games.api.errors import SERVER_ERROR, json_error_handler
from games.api.middleware import DEFAULT_MAX_BODY_BYTES
from games.api.throttling import refuse_if_throttled
from games.consumers import in_worker_thread
from games.errors import ServiceError
from kingdom.ops.logs import REQUEST_ID_HEADER, access_log, request_id_from

log = logging.getLogger(__name__)
Scope = dict[str, Any]
Receive = Callable[[], Awaitable[dict[str, Any]]]
Send = Callable[[dict[str, Any]], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]

# Django's <uuid:game_id>: lowercase hex only.
PATH = re.compile(
    r"^/api/tables/(?P<game_id>[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})"
    r"/commands/$"
)
THROTTLE_SCOPE = "commands"  # TableCommands.throttle_scope
# What DRF adds to the view's answers (the view's methods; no Vary: Accept, as the API
# renders JSON only); a session-aware authentication makes Django add Cookie to Vary.
VIEW_HEADERS = {"Vary": "Cookie", "Allow": "POST, OPTIONS"}
GUARD_HEADERS = {"Vary": "Cookie"}  # the API guard's JSON 500
ACCEPTS_PLAIN_JSON = frozenset({b"", b"*/*", b"application/json"})
Answer = tuple[int, dict[str, Any], dict[str, str]]


@dataclass(frozen=True)
class Claim:
    """A request the route answers: what it read of the headers."""

    game_id: uuid.UUID
    token: str
    length: int
    secure: bool
    request_id: str


class CommandRoute:
    """ASGI: claims the plain API move (see the module's text), passes the rest on."""

    def __init__(self, django_app: ASGIApp) -> None:
        self.django_app = django_app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        claim = claim_of(scope) if scope["type"] == "http" else None
        if claim is None:
            return await self.django_app(scope, receive, send)
        body = await read_body(receive)
        if body is None:
            return  # the client went away
        if len(body) != claim.length:
            return await self.django_app(scope, replaying(body, receive), send)
        started = time.perf_counter()
        structlog.contextvars.clear_contextvars()
        structlog.contextvars.bind_contextvars(request_id=claim.request_id)
        try:
            answer = await answer_move(claim, body, scope["path"])
            if answer is None:
                return await self.django_app(scope, replaying(body, receive), send)
            status, document, headers = answer
            await respond(send, status, document, headers, claim)
            access_log.info(
                "request",
                extra={
                    "method": "POST",
                    "path": scope["path"],
                    "status": status,
                    "ms": round((time.perf_counter() - started) * 1000, 1),
                },
            )
        finally:
            structlog.contextvars.clear_contextvars()


def claim_of(scope: Scope) -> Claim | None:
    """The request's claim if it is the plain case, else None (Django answers it)."""
    if scope["method"] != "POST" or scope.get("query_string") or scope.get("root_path"):
        return None
    match = PATH.match(scope["path"])
    if match is None:
        return None
    headers: dict[bytes, bytes] = {}
    for name, value in scope["headers"]:
        if name in headers:
            return None  # a repeated header: Django's way of joining them decides
        headers[name] = value
    token = token_in(headers.get(b"authorization", b""))
    secure = is_secure(scope, headers)
    length = plain_json_length(headers)
    if (
        token is None
        or length is None
        or headers.get(b"accept", b"").strip() not in ACCEPTS_PLAIN_JSON
        or has_session(headers)
        or not allowed_host(headers)
        or (settings.SECURE_SSL_REDIRECT and not secure)
    ):
        return None
    request_id = request_id_from(headers.get(REQUEST_ID_HEADER.lower().encode(), b"").decode())
    return Claim(uuid.UUID(match["game_id"]), token, length, secure, request_id)


@functools.cache
def token_authentication() -> authentication.TokenAuthentication | None:
    """The configured token authentication (DRF's ``TokenAuthentication`` or a subclass)."""
    for authenticator in api_settings.DEFAULT_AUTHENTICATION_CLASSES:
        if issubclass(authenticator, authentication.TokenAuthentication):
            return authenticator()
    return None


def token_in(header: bytes) -> str | None:
    """The key of ``<keyword> <key>`` credentials; None for anything DRF would refuse or
    read another way."""
    authenticator = token_authentication()
    words = header.split()
    if authenticator is None or len(words) != 2:
        return None
    if words[0].lower() != authenticator.keyword.lower().encode():
        return None
    try:
        return words[1].decode()
    except UnicodeError:
        return None


def plain_json_length(headers: dict[bytes, bytes]) -> int | None:
    """The declared length of a JSON body (UTF-8) the API guard lets through unread."""
    content_type, _, parameters = headers.get(b"content-type", b"").partition(b";")
    if content_type.strip().lower() != b"application/json":
        return None
    charset = parameters.strip().lower()
    if charset and charset.replace(b" ", b"") != b"charset=utf-8":
        return None
    limit = getattr(settings, "API_MAX_BODY_BYTES", DEFAULT_MAX_BODY_BYTES)
    declared = headers.get(b"content-length", b"")
    if not declared.isdigit() or not 0 < int(declared) <= limit:
        return None
    return int(declared)


def has_session(headers: dict[bytes, bytes]) -> bool:
    cookies = headers.get(b"cookie")
    if cookies is None:
        return False
    return settings.SESSION_COOKIE_NAME in parse_cookie(cookies.decode("latin-1"))


def allowed_host(headers: dict[bytes, bytes]) -> bool:
    """Django's ``get_host`` check, for the plain case: the Host header only."""
    if settings.USE_X_FORWARDED_HOST and b"x-forwarded-host" in headers:
        return False
    allowed = settings.ALLOWED_HOSTS
    if settings.DEBUG and not allowed:
        allowed = [".localhost", "127.0.0.1", "[::1]"]
    return _allowed(headers.get(b"host", b""), tuple(allowed))


@functools.lru_cache(maxsize=64)
def _allowed(host: bytes, allowed: tuple[str, ...]) -> bool:
    # A server sees few Host values; matching each against every pattern cost ~2% of
    # a loaded server's samples.
    domain, _ = split_domain_port(host.decode("latin-1"))
    return bool(domain) and validate_host(domain, allowed)


def is_secure(scope: Scope, headers: dict[bytes, bytes]) -> bool:
    """Django's ``HttpRequest.is_secure``: the proxy's header when one is configured."""
    proxy = settings.SECURE_PROXY_SSL_HEADER
    if proxy:
        name = proxy[0].removeprefix("HTTP_").replace("_", "-").lower().encode()
        if name in headers:
            return headers[name].decode("latin-1").split(",")[0].strip() == proxy[1]
    return scope.get("scheme") == "https"


async def read_body(receive: Receive) -> bytes | None:
    chunks: list[bytes] = []
    while True:
        message = await receive()
        if message["type"] == "http.disconnect":
            return None
        chunks.append(message.get("body", b""))
        if not message.get("more_body"):
            return b"".join(chunks)


def replaying(body: bytes, receive: Receive) -> Receive:
    """``receive`` for Django after the route read the body: the body, then the client."""
    sent = False

    async def again() -> dict[str, Any]:
        nonlocal sent
        if sent:
            return await receive()
        sent = True
        return {"type": "http.request", "body": body, "more_body": False}

    return again


@in_worker_thread  # as a move on the socket runs (games/consumers.py says why)
def answer_move(claim: Claim, body: bytes, path: str) -> Answer | None:
    """The move's answer; None for a refusal before the write (Django answers it)."""
    try:
        try:
            checked = checked_move(claim.token, body)
        except Exception:
            # A failure before the write (a busy pool, Redis away) is Django's to answer,
            # log and count, as for any request; nothing was written.
            return None
        if checked is None:
            return None
        user, command = checked
        try:
            status, document = moves.submit(claim.game_id, user, command)
        except Exception as exc:
            return refused(exc, path)
        return status, document, VIEW_HEADERS
    finally:
        # Back to the pool at once, as after a socket's move (games/consumers.py).
        connections.close_all()


def checked_move(token: str, body: bytes) -> tuple[Any, dict[str, Any]] | None:
    """The user and the valid command body, counted against the rate limit; None for
    what the view would refuse before the write."""
    document = valid_body(body)
    if document is None:
        return None
    user = authenticated(token)
    if user is None:
        return None
    try:
        command = serializers.valid_command(document)
        refuse_if_throttled(THROTTLE_SCOPE, user)
    except (exceptions.ValidationError, ServiceError):
        return None
    return user, command


def valid_body(body: bytes) -> Any | None:
    """The JSON document, or None for what the API guard or DRF's parser refuses."""
    try:
        document = drf_json.loads(body)  # DRF's strict parse: no NaN or Infinity
    except (ValueError, RecursionError):
        return None
    return None if json_input.problem(document) is not None else document


def authenticated(token: str) -> Any | None:
    try:
        user, _ = token_authentication().authenticate_credentials(token)
    except exceptions.AuthenticationFailed:
        return None
    return user


def refused(exc: Exception, path: str) -> Answer:
    """A refusal of the write as the API's exception handler answers it; anything it does
    not know is a logged 500, as the API guard makes of it."""
    response = json_error_handler(exc, {})
    if response is None:
        log.error("uncaught exception under %s", path, exc_info=exc)
        return 500, SERVER_ERROR, GUARD_HEADERS
    # Its own headers (Retry-After); the content type is the answer's, set in ``respond``.
    extra = {k: v for k, v in response.headers.items() if k.lower() != "content-type"}
    return response.status_code, response.data, {**VIEW_HEADERS, **extra}


async def respond(
    send: Send, status: int, document: dict[str, Any], own: dict[str, str], claim: Claim
) -> None:
    content = json_output.encode(document).encode()
    headers = [
        (b"content-type", b"application/json"),
        *((name.lower().encode(), value.encode()) for name, value in own.items()),
        *security_headers(claim.secure),
        (REQUEST_ID_HEADER.lower().encode(), claim.request_id.encode()),
        (b"content-length", str(len(content)).encode()),
    ]
    await send({"type": "http.response.start", "status": status, "headers": headers})
    await send({"type": "http.response.body", "body": content})


def security_headers(secure: bool) -> list[tuple[bytes, bytes]]:
    """What Django's SecurityMiddleware and XFrameOptionsMiddleware add to the answer."""
    headers = []
    if secure and settings.SECURE_HSTS_SECONDS:
        value = f"max-age={settings.SECURE_HSTS_SECONDS}"
        if settings.SECURE_HSTS_INCLUDE_SUBDOMAINS:
            value += "; includeSubDomains"
        if settings.SECURE_HSTS_PRELOAD:
            value += "; preload"
        headers.append((b"strict-transport-security", value.encode()))
    if settings.SECURE_CONTENT_TYPE_NOSNIFF:
        headers.append((b"x-content-type-options", b"nosniff"))
    if settings.SECURE_REFERRER_POLICY:
        policy = settings.SECURE_REFERRER_POLICY
        if not isinstance(policy, str):
            policy = ",".join(policy)
        headers.append((b"referrer-policy", policy.encode()))
    if settings.SECURE_CROSS_ORIGIN_OPENER_POLICY:
        headers.append(
            (b"cross-origin-opener-policy", settings.SECURE_CROSS_ORIGIN_OPENER_POLICY.encode())
        )
    headers.append((b"x-frame-options", settings.X_FRAME_OPTIONS.encode()))
    return headers
