"""The API's outer guard: hostile input is refused before any view parses it, and
whatever still goes wrong under /api/ answers JSON ``{"code", "message"}``.

Before the view: a declared length over ``API_MAX_BODY_BYTES`` is a 413 (infra/body_limit.py
holds a body to it as it arrives); a NUL in the path or the query and a Host not allowed
are 400s; a JSON body in a charset other than UTF-8 is a 415; an address without its
final slash is a 404 naming it. A JSON body is parsed once, by the view's parser
(games/api/parsers.py), which refuses what ``games.json_input`` refuses (too deep, NUL,
lone surrogate) with a 400.
After: Redis or PostgreSQL not answering is a JSON 503 with Retry-After, another uncaught
exception a logged JSON 500 with no traceback text, and any HTML error page (a debug
page) becomes JSON.

``news_middleware`` publishes the notices a view left on its response (``with_news``).
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable, Iterable
from http import HTTPStatus
from typing import Any, TypeVar

from asgiref.sync import iscoroutinefunction
from django.conf import settings
from django.core.exceptions import DisallowedHost
from django.http import HttpRequest, HttpResponse
from django.urls import is_valid_path
from django.utils.decorators import sync_and_async_middleware

from games import publishing
from games.api.errors import (
    bad_request_page,
    is_api,
    json_error,
    server_error_json,
    unavailable_json,
)
from infra.unavailable import dependency_down

log = logging.getLogger(__name__)
BODY_METHODS = frozenset({"POST", "PUT", "PATCH", "DELETE"})
DEFAULT_MAX_BODY_BYTES = 64 * 1024
UTF_8 = frozenset({"utf-8", "utf8"})


class ApiGuardMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if not is_api(request):
            return self.get_response(request)
        refusal = refuse(request)
        if refusal is not None:
            return refusal
        response = self.get_response(request)
        if response.status_code >= 400 and response.get("Content-Type", "").startswith("text/"):
            # Django's own pages (the debug ones included) become the API's JSON.
            status = HTTPStatus(response.status_code)
            code = status.phrase.lower().replace(" ", "_").replace("-", "_")
            return json_error(code, f"{status.phrase}.", response.status_code)
        return response

    def process_exception(self, request: HttpRequest, exception: Exception) -> HttpResponse | None:
        if not is_api(request):
            return None
        if dependency_down(exception):
            log.warning("a dependency is down under %s: %r", request.path, exception)
            return unavailable_json()
        log.error("uncaught exception under %s", request.path, exc_info=exception)
        return server_error_json()


def refuse(request: HttpRequest) -> HttpResponse | None:
    """The 4xx answer for hostile input, or None to let the view see the request."""
    if "\x00" in request.path or any(
        "\x00" in key or any("\x00" in v for v in values) for key, values in request.GET.lists()
    ):
        return json_error("bad_text", "Text may not contain NUL characters.", 400)
    try:
        request.get_host()
    except DisallowedHost as exc:
        # Answered here, as Django answers it without DEBUG (logged, then handler400), so
        # that the debug page never answers an API client.
        logging.getLogger("django.security.DisallowedHost").error(str(exc))
        return bad_request_page(request, exc)
    if missing_slash(request):
        where = f"{request.path}/"
        return json_error("not_found", f"Not found; the address ends with a slash: {where}", 404)
    if request.method not in BODY_METHODS:
        return None
    limit = getattr(settings, "API_MAX_BODY_BYTES", DEFAULT_MAX_BODY_BYTES)
    try:
        declared = int(request.META.get("CONTENT_LENGTH") or 0)
    except ValueError:
        return json_error("bad_request", "Content-Length is not a number.", 400)
    if declared > limit:  # (a body without its length is held to it as it arrives)
        return json_error("too_large", f"A request body holds at most {limit} bytes.", 413)
    if "json" not in (request.content_type or ""):
        return None
    charset = (request.content_params or {}).get("charset", "utf-8").strip().lower()
    if charset not in UTF_8:
        # JSON is UTF-8 (RFC 8259); the parser reads it as that.
        return json_error("unsupported_charset", "A JSON body is UTF-8 (charset=utf-8).", 415)
    return None


def missing_slash(request: HttpRequest) -> bool:
    """An address that exists only with a final slash (CommonMiddleware would answer an
    empty 301, or for a POST under DEBUG raise a RuntimeError)."""
    path = request.path_info
    if not settings.APPEND_SLASH or path.endswith("/"):
        return False
    urlconf = getattr(request, "urlconf", None)
    return not is_valid_path(path, urlconf) and bool(is_valid_path(f"{path}/", urlconf))


# A DRF Response stays one (it is an HttpResponse).
AnyResponse = TypeVar("AnyResponse", bound=HttpResponse)


def with_news(response: AnyResponse, notices: Iterable[publishing.Notice]) -> AnyResponse:
    """Leave ``notices`` (a committed write's) on ``response`` for ``news_middleware``."""
    response.kingdom_news = tuple(notices)  # type: ignore[attr-defined]
    return response


@sync_and_async_middleware
def news_middleware(get_response: Callable[[HttpRequest], Any]) -> Callable[[HttpRequest], Any]:
    """Publishes the notices a view left on its response (``with_news``).

    Innermost in MIDDLEWARE, so under ASGI it runs in Django's async mode, on the
    request's event loop, between the sync chain's thread and the view's (Django's own
    adapter crosses to the loop there anyway): the REST move's publish is awaited on the
    loop as the socket's is, rather than its thread waiting for a hop to the loop and
    back (asgiref's ``async_to_sync``). Under WSGI (the test client) it sends as sync code
    does. Runs before the response goes back out through the chain: the write is
    committed already."""
    if iscoroutinefunction(get_response):
        handler: Callable[[HttpRequest], Awaitable[Any]] = get_response

        async def publish_on_loop(request: HttpRequest) -> Any:
            response = await handler(request)
            await publishing.asend(getattr(response, "kingdom_news", ()))
            return response

        return publish_on_loop

    def publish_in_thread(request: HttpRequest) -> Any:
        response = get_response(request)
        publishing.send(getattr(response, "kingdom_news", ()))
        return response

    return publish_in_thread
