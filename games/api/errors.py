"""Every API error is JSON ``{"code", "message"}`` with a 4xx status (a 500 only as the
last resort, still JSON and without the traceback). Messages are clipped: a refusal
never echoes megabytes of the input back."""

from __future__ import annotations

import logging
import sys
from dataclasses import dataclass
from typing import Any

from django.core.exceptions import DisallowedHost
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.views import defaults
from psycopg_pool import PoolTimeout
from rest_framework import exceptions, status
from rest_framework.response import Response
from rest_framework.views import exception_handler

from games.errors import ServiceError
from infra.unavailable import RETRY_AFTER, UNAVAILABLE, dependency_down

log = logging.getLogger(__name__)
API_PREFIX = "/api/"
# Longest text an error body quotes (message, field errors); the rest becomes "…".
MAX_ERROR_TEXT = 300


def clip(value: Any, limit: int = MAX_ERROR_TEXT) -> Any:
    """``value`` with every string in it cut to ``limit`` characters."""
    if isinstance(value, str):
        return value if len(value) <= limit else value[: limit - 1] + "…"
    if isinstance(value, dict):
        return {clip(k, 60): clip(v, limit) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [clip(v, limit) for v in value]
    return value


def is_api(request: HttpRequest) -> bool:
    return request.path_info.startswith(API_PREFIX)


def json_error(code: str, message: str, status: int) -> JsonResponse:
    return JsonResponse({"code": code, "message": clip(message)}, status=status)


# Seconds a client is asked to wait when every database connection of the process is busy.
BUSY_RETRY_AFTER = 1


def pool_exhausted(exc: BaseException | None) -> bool:
    """No database connection came free in time (psycopg_pool.PoolTimeout, which Django
    raises wrapped in its own OperationalError)."""
    while exc is not None:
        if isinstance(exc, PoolTimeout):
            return True
        exc = exc.__cause__
    return False


BUSY = {"code": "busy", "message": "The server is busy; try again in a moment."}


def busy_json() -> JsonResponse:
    response = JsonResponse(BUSY, status=503)
    response["Retry-After"] = str(BUSY_RETRY_AFTER)
    return response


SERVER_ERROR = {
    "code": "server_error",
    "message": "Something went wrong on our side; it was logged.",
}


def server_error_json() -> JsonResponse:
    return json_error(SERVER_ERROR["code"], SERVER_ERROR["message"], 500)


def unavailable_json() -> JsonResponse:
    """Redis or PostgreSQL did not answer (infra/unavailable.py)."""
    response = JsonResponse(UNAVAILABLE, status=503)
    response["Retry-After"] = str(RETRY_AFTER)
    return response


def not_found_page(request: HttpRequest, exception: Exception | None = None) -> HttpResponse:
    """handler404: JSON under /api/, the site's page elsewhere."""
    if is_api(request):
        return json_error("not_found", "Not found.", 404)
    return defaults.page_not_found(request, exception)


def bad_request_page(request: HttpRequest, exception: Exception) -> HttpResponse:
    """handler400 (a Host not allowed, a suspicious request): JSON under /api/."""
    if is_api(request):
        if isinstance(exception, DisallowedHost):
            return json_error("bad_host", "This Host header is not served here.", 400)
        return json_error("bad_request", "Bad request.", 400)
    return defaults.bad_request(request, exception)


def permission_denied_page(request: HttpRequest, exception: Exception) -> HttpResponse:
    """handler403: JSON under /api/."""
    if is_api(request):
        return json_error("forbidden", "You may not do this.", 403)
    return defaults.permission_denied(request, exception)


def server_error_page(request: HttpRequest) -> HttpResponse:
    """handler500: JSON under /api/ (the exception is already logged by Django); a busy
    connection pool is a 503 (called while the exception is being handled)."""
    if pool_exhausted(sys.exc_info()[1]):
        if is_api(request):
            return busy_json()
        response = HttpResponse(BUSY["message"], status=503, content_type="text/plain")
        response["Retry-After"] = str(BUSY_RETRY_AFTER)
        return response
    if dependency_down(sys.exc_info()[1]):
        if is_api(request):
            return unavailable_json()
        response = HttpResponse(UNAVAILABLE["message"], status=503, content_type="text/plain")
        response["Retry-After"] = str(RETRY_AFTER)
        return response
    if is_api(request):
        return server_error_json()
    return defaults.server_error(request)


def first_message(detail: Any) -> str:
    if isinstance(detail, dict):
        field, value = next(iter(detail.items()))
        return f"{field}: {first_message(value)}"
    if isinstance(detail, list) and detail:
        return first_message(detail[0])
    return str(detail)


@dataclass(frozen=True)
class Refusal:
    """What a refused request is answered: its status and JSON body (a socket sends the
    status in the body too) and, for a limit or a busy server, when to try again."""

    status: int
    body: dict[str, Any]
    retry_after: int | None = None

    @property
    def headers(self) -> dict[str, str]:
        return {} if self.retry_after is None else {"Retry-After": str(self.retry_after)}


def refusal(exc: BaseException) -> Refusal | None:
    """The answer to a service's refusal (``ServiceError``), invalid fields (a 400
    ``invalid``), a busy database pool or a dependency that is down (a 503); None for
    anything else. The REST API's
    exception handler and the socket's commands answer through here."""
    if isinstance(exc, ServiceError):
        body = clip(exc.as_json())
        return Refusal(exc.status, body, body.get("retry_after"))
    if isinstance(exc, exceptions.ValidationError):
        detail = exc.detail
        body = {"code": "invalid", "message": first_message(detail), "fields": detail}
        return Refusal(400, clip(body))
    if pool_exhausted(exc):
        return Refusal(503, dict(BUSY), BUSY_RETRY_AFTER)
    if dependency_down(exc):
        return Refusal(503, dict(UNAVAILABLE), RETRY_AFTER)
    return None


def refusal_or_failure(exc: BaseException, what: str) -> Refusal:
    """The answer to a socket's request (``what``: "a move", "a chat message") that raised
    ``exc``: ``refusal``'s mapping, or a logged 500 whose text says nothing of the code."""
    found = refusal(exc)
    if found is None:
        log.error("%s failed", what, exc_info=exc)
        return Refusal(500, dict(SERVER_ERROR))
    return found


def json_error_handler(exc: Exception, context: dict[str, Any]) -> Response | None:
    refused = refusal(exc)
    if refused is not None:
        return Response(refused.body, status=refused.status, headers=refused.headers)
    if isinstance(exc, Http404):
        return Response({"code": "not_found", "message": "Not found."}, status=404)
    response = exception_handler(exc, context)
    if response is None:
        return None
    if isinstance(exc, exceptions.APIException):
        code = exc.get_codes() if isinstance(exc.get_codes(), str) else "error"
        body = {"code": code, "message": first_message(exc.detail)}
    else:
        body = {"code": "error", "message": str(exc)}
    if response.status_code == status.HTTP_401_UNAUTHORIZED:
        body["code"] = "not_authenticated"
    response.data = clip(body)
    return response
