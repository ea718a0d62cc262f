"""Structured logs and the request id that ties one command's log lines together.

Every log line (Django's, Celery's, ours) goes through structlog's ProcessorFormatter:
JSON in production (LOG_FORMAT=json, the default with DEBUG off), readable text in the
embedded mode. The request id is bound in structlog's context variables:

- HTTP: ``RequestIdMiddleware`` takes ``X-Request-ID`` (or makes one), binds it, echoes
  it in the response header and writes one access line per request;
- Celery: ``before_task_publish`` copies the bound id into the task's message headers and
  ``task_prerun`` binds it again in the worker, so a move's log lines and its bot turns'
  log lines (and the bot turns those schedule in turn) share one id.
"""

from __future__ import annotations

import logging
import re
import time
import uuid
from collections.abc import Callable, MutableMapping
from typing import Any

import structlog
from django.http import HttpRequest, HttpResponse

REQUEST_ID_HEADER = "X-Request-ID"
# A caller's id is kept only when it looks like an id (no log injection, bounded size).
_VALID_ID = re.compile(r"^[A-Za-z0-9._:-]{1,128}$")
access_log = logging.getLogger("kingdom.access")

# A WebSocket ticket is a credential for its lifetime: never written to a log. uvicorn
# logs every socket's path with its query string, Django a request's full path.
_TICKET = re.compile(r"(ticket=)[^&\s\"'#]+")
REDACTED = "[redacted]"


def redact(text: str) -> str:
    return _TICKET.sub(rf"\g<1>{REDACTED}", text)


def request_fields(
    _: Any, __: str, event_dict: MutableMapping[str, Any]
) -> MutableMapping[str, Any]:
    """A record that carries its request (``django.request``, ``django.security``; they
    are written after the request's own middleware has returned) gets the request's id,
    method and path, never the request's repr (its full path, query string included);
    uvicorn's colored copy of its message goes."""
    event_dict.pop("color_message", None)
    request = event_dict.pop("request", None)
    if request is None:
        return event_dict
    if hasattr(request, "method") and hasattr(request, "path"):
        event_dict.setdefault("method", request.method)
        event_dict.setdefault("path", request.path)
        request_id = getattr(request, "request_id", None)
        if request_id:
            event_dict.setdefault("request_id", request_id)
    return event_dict


def redact_tickets(_: Any, __: str, event_dict: dict[str, Any]) -> dict[str, Any]:
    for key, value in event_dict.items():
        if isinstance(value, str) and "ticket=" in value:
            event_dict[key] = redact(value)
    return event_dict


_SHARED: list[structlog.types.Processor] = [
    structlog.contextvars.merge_contextvars,
    structlog.stdlib.add_log_level,
    structlog.stdlib.add_logger_name,
    # A stdlib call's ``extra={...}`` fields become fields of the line.
    structlog.stdlib.ExtraAdder(),
    request_fields,
    structlog.processors.TimeStamper(fmt="iso", utc=True),
]


def formatter(fmt: str) -> dict[str, Any]:
    """The one formatter of every line: JSON (``fmt`` "json") or console text."""
    renderer = (
        structlog.processors.JSONRenderer()
        if fmt == "json"
        else structlog.dev.ConsoleRenderer(colors=False)
    )
    return {
        "()": structlog.stdlib.ProcessorFormatter,
        "processors": [
            structlog.stdlib.ProcessorFormatter.remove_processors_meta,
            structlog.processors.format_exc_info,
            redact_tickets,
            renderer,
        ],
        "foreign_pre_chain": _SHARED,
    }


def logging_config(fmt: str, level: str, app_level: str) -> dict[str, Any]:
    """Django's LOGGING: one stderr handler, JSON (``fmt`` "json") or console text."""
    return {
        "version": 1,
        "disable_existing_loggers": False,
        "formatters": {"structured": formatter(fmt)},
        "handlers": {"console": {"class": "logging.StreamHandler", "formatter": "structured"}},
        "root": {"handlers": ["console"], "level": level},
        # Our own lines (access, commands), Celery's task lines and uvicorn's (start,
        # stop, sockets opened) at INFO by default; the rest of the world at LOG_LEVEL.
        "loggers": {
            "kingdom": {"level": app_level},
            "celery": {"level": app_level},
            **uvicorn_loggers(app_level),
            # Django's own loggers through our one handler (its default config adds a second
            # for DEBUG, which printed each line twice); the embedded server's line per
            # request would repeat kingdom.access's: only its warnings.
            "django": {"handlers": ["console"], "level": level, "propagate": False},
            "django.channels.server": {
                "handlers": ["console"],
                "level": "WARNING",
                "propagate": False,
            },
            "django.server": {"handlers": ["console"], "level": "WARNING", "propagate": False},
        },
    }


def uvicorn_loggers(level: str) -> dict[str, Any]:
    """uvicorn gives its loggers handlers of their own at start; once Django is set up
    (the application is imported before uvicorn's first line) ours replace them."""
    # kingdom.access logs every request once, with its request id: uvicorn's own access
    # line would be a second copy (the Procfile's --no-access-log), so only its warnings.
    return {
        "uvicorn": {"handlers": ["console"], "level": level, "propagate": False},
        "uvicorn.access": {"handlers": ["console"], "level": "WARNING", "propagate": False},
    }


def configure_structlog() -> None:
    """structlog's own loggers render through the stdlib handler above."""
    structlog.configure(
        processors=[*_SHARED, structlog.stdlib.ProcessorFormatter.wrap_for_formatter],
        logger_factory=structlog.stdlib.LoggerFactory(),
        wrapper_class=structlog.stdlib.BoundLogger,
        cache_logger_on_first_use=True,
    )


def current_request_id() -> str | None:
    return structlog.contextvars.get_contextvars().get("request_id")


def request_id_from(value: str | None) -> str:
    return value if value and _VALID_ID.match(value) else uuid.uuid4().hex


class RequestIdMiddleware:
    """Binds the request id for the request's log lines, echoes it, logs one access line.

    Health probes and /metrics never get here (``ops.health.OpsMiddleware`` answers them
    first), so they make no access-log noise."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        request_id = request_id_from(request.headers.get(REQUEST_ID_HEADER))
        # The views and the error handlers read the id from the request.
        request.request_id = request_id  # type: ignore[attr-defined]
        structlog.contextvars.clear_contextvars()
        structlog.contextvars.bind_contextvars(request_id=request_id)
        started = time.perf_counter()
        try:
            response = self.get_response(request)
            response[REQUEST_ID_HEADER] = request_id
            access_log.info(
                "request",
                extra={
                    "method": request.method,
                    "path": request.path,
                    "status": response.status_code,
                    "ms": round((time.perf_counter() - started) * 1000, 1),
                },
            )
            return response
        finally:
            structlog.contextvars.clear_contextvars()


# --- Celery: the request id crosses the broker in the message headers ------------------

TASK_HEADER = "kingdom_request_id"


def stamp_task_headers(headers: dict[str, Any] | None = None, **_: Any) -> None:
    """before_task_publish: the publishing context's request id goes with the task."""
    request_id = current_request_id()
    if headers is not None and request_id:
        headers.setdefault(TASK_HEADER, request_id)


def bind_task_context(task: Any = None, task_id: str | None = None, **_: Any) -> None:
    """task_prerun: the worker's log lines for this task carry the request id."""
    structlog.contextvars.clear_contextvars()
    request = getattr(task, "request", None)
    request_id = getattr(request, TASK_HEADER, None) or (
        (getattr(request, "headers", None) or {}).get(TASK_HEADER)
    )
    structlog.contextvars.bind_contextvars(
        request_id=request_id or task_id, task=getattr(task, "name", None), task_id=task_id
    )


def clear_task_context(**_: Any) -> None:
    structlog.contextvars.clear_contextvars()
