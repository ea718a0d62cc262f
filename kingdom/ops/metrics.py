"""Prometheus metrics, and the call sites' one-line helpers.

Multi-process: with ``PROMETHEUS_MULTIPROC_DIR`` set (an empty folder per pod, cleared
at start), every process of the pod (web processes, Celery's prefork children) writes
its samples there and a scrape sums them (``prometheus_client.multiprocess``). Without
it, each process answers for itself, which is right for one web process per pod.

Web pods answer /metrics (``metrics_view``). Celery workers answer on ``METRICS_PORT``
when it is set (``start_worker_metrics_server``, called at worker start).
"""

from __future__ import annotations

import functools
import hmac
import ipaddress
import logging
import os
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from datetime import datetime
from typing import Any, ParamSpec, TypeVar

from django.conf import settings
from django.http import HttpRequest, HttpResponse
from prometheus_client import (
    CONTENT_TYPE_LATEST,
    CollectorRegistry,
    Counter,
    Gauge,
    Histogram,
    generate_latest,
    multiprocess,
)

P = ParamSpec("P")
R = TypeVar("R")
log = logging.getLogger("kingdom.commands")

COMMANDS = Counter(
    "kingdom_commands_total",
    "Player and bot commands, by outcome (accepted, refused) and refusal code.",
    ["outcome", "code"],
)
MOVE_SECONDS = Histogram(
    "kingdom_move_seconds",
    "Time to validate and record one command (lock, decide, append, commit).",
    buckets=(0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0),
)
OPEN_SOCKETS = Gauge(
    "kingdom_open_sockets",
    "Accepted WebSocket connections currently open.",
    ["route"],
    multiprocess_mode="livesum",
)
BOT_TURN_SECONDS = Histogram(
    "kingdom_bot_turn_seconds",
    "Time a bot takes to choose its command, by level.",
    ["level"],
    buckets=(0.01, 0.05, 0.1, 0.25, 0.5, 1.0, 2.0, 5.0, 10.0, 20.0),
)
SWEEP_LAG_SECONDS = Histogram(
    "kingdom_clock_sweep_lag_seconds",
    "How long the oldest run-out clock had been waiting when a sweep started.",
    buckets=(0.5, 1.0, 2.0, 5.0, 10.0, 30.0, 60.0, 300.0),
)
DEPENDENCY_UP = Gauge(
    "kingdom_dependency_up",
    "Whether a shared dependency (database, redis, channel_layer) answered this pod's "
    "last readiness probe (1) or not (0).",
    ["dependency"],
    multiprocess_mode="liveall",
)
AUDIT_FAILURES = Counter("kingdom_audit_failures_total", "Game audits whose verdict did not pass.")


def counted_command(submit: Callable[P, R]) -> Callable[P, R]:
    """Decorates the write path's submit: counts each command accepted or refused (by
    its error code) and times it. Refusals are logged at INFO with their code; accepted
    commands at DEBUG only: the game's event log records each of them, and a JSON line
    per move was ~2% of a loaded server's CPU (py-spy, bench live)."""

    @functools.wraps(submit)
    def wrapper(*args: P.args, **kwargs: P.kwargs) -> R:
        started = time.perf_counter()
        try:
            result = submit(*args, **kwargs)
        except Exception as exc:
            code = getattr(exc, "code", None) or "error"
            COMMANDS.labels("refused", code).inc()
            log.info("command refused", extra={"code": code, "game": str(kwargs.get("game_id"))})
            raise
        MOVE_SECONDS.observe(time.perf_counter() - started)
        COMMANDS.labels("accepted", "").inc()
        log.debug("command accepted", extra={"game": str(kwargs.get("game_id"))})
        return result

    return wrapper


@contextmanager
def bot_turn(level: str) -> Iterator[None]:
    """``with ..., metrics.bot_turn(level):`` around a bot's choice of command."""
    started = time.perf_counter()
    try:
        yield
    finally:
        BOT_TURN_SECONDS.labels(level).observe(time.perf_counter() - started)


def observe_sweep_lag(oldest_deadline: datetime | None, now: datetime) -> None:
    if oldest_deadline is not None:
        SWEEP_LAG_SECONDS.observe(max(0.0, (now - oldest_deadline).total_seconds()))


def counted_audit(audit: Callable[P, R]) -> Callable[P, R]:
    """Decorates a game's audit: a verdict that does not pass counts as a failure."""

    @functools.wraps(audit)
    def wrapper(*args: P.args, **kwargs: P.kwargs) -> R:
        verdict = audit(*args, **kwargs)
        if not getattr(verdict, "passed", True):
            AUDIT_FAILURES.inc()
        return verdict

    return wrapper


def count_sockets(app: Callable[..., Any]) -> Callable[..., Any]:
    """ASGI middleware: the open-sockets gauge, by route, from accept to disconnect."""

    async def counted(scope: dict[str, Any], receive: Callable, send: Callable) -> None:
        gauge = OPEN_SOCKETS.labels(_route(scope.get("path", "")))
        accepted = False

        async def counting_send(message: dict[str, Any]) -> None:
            nonlocal accepted
            if message.get("type") == "websocket.accept" and not accepted:
                accepted = True
                gauge.inc()
            await send(message)

        try:
            await app(scope, receive, counting_send)
        finally:
            if accepted:
                gauge.dec()

    return counted


def _route(path: str) -> str:
    # /ws/games/<id>/chat/ -> "chat": a label per kind of socket, never per game.
    parts = [p for p in path.split("/") if p]
    if "chat" in parts:
        return "chat"
    if "lobby" in parts:
        return "lobby"
    return "game" if "games" in parts or "tables" in parts else "other"


# --- exposition -----------------------------------------------------------------------


def registry() -> CollectorRegistry | None:
    """The multiprocess collector when PROMETHEUS_MULTIPROC_DIR is set, else None (the
    default registry, this process only)."""
    if not os.environ.get("PROMETHEUS_MULTIPROC_DIR"):
        return None
    collecting = CollectorRegistry()
    multiprocess.MultiProcessCollector(collecting)
    return collecting


def scrape() -> bytes:
    collecting = registry()
    return generate_latest(collecting) if collecting else generate_latest()


def allowed(request: HttpRequest) -> bool:
    """/metrics is for the scraper only: with METRICS_TOKEN set, a matching bearer token
    (any address); without it, a client address in METRICS_ALLOWED_NETWORKS."""
    token = settings.METRICS_TOKEN
    if token:
        given = request.headers.get("Authorization", "").removeprefix("Bearer ").strip()
        return hmac.compare_digest(given.encode(), token.encode())
    try:
        address = ipaddress.ip_address(request.META.get("REMOTE_ADDR", ""))
    except ValueError:
        return False
    return any(address in ipaddress.ip_network(n) for n in settings.METRICS_ALLOWED_NETWORKS)


def metrics_view(request: HttpRequest) -> HttpResponse:
    if not allowed(request):
        return HttpResponse(
            b'{"code": "forbidden", "message": "Metrics are for the scraper only."}',
            status=403,
            content_type="application/json",
        )
    return HttpResponse(scrape(), content_type=CONTENT_TYPE_LATEST)


def start_worker_metrics_server(**_: Any) -> None:
    """worker_init: a Celery worker answers scrapes on METRICS_PORT when it is set."""
    port = os.environ.get("METRICS_PORT")
    if port:
        from prometheus_client import start_http_server

        start_http_server(int(port), registry=registry() or _default_registry())


def _default_registry() -> CollectorRegistry:
    from prometheus_client import REGISTRY

    return REGISTRY


def mark_child_dead(pid: int | None = None, **_: Any) -> None:
    """worker_process_shutdown: a prefork child's live gauges leave the sums."""
    if os.environ.get("PROMETHEUS_MULTIPROC_DIR"):
        multiprocess.mark_process_dead(pid or os.getpid())
