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
import json
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
from prometheus_client.core import GaugeMetricFamily

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
HTTP_REQUESTS = Counter(
    "kingdom_http_requests_total",
    "HTTP requests Django answered, by method, route (the URL pattern) and status.",
    ["method", "route", "status"],
)
HTTP_SECONDS = Histogram(
    "kingdom_http_request_seconds",
    "Time Django took to answer an HTTP request, by method and route.",
    ["method", "route"],
    buckets=(0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0),
)
HTTP_SERVER_ERRORS = Counter(
    "kingdom_http_server_errors_total",
    "HTTP requests answered with a 5xx, by route.",
    ["route"],
)
BOT_TURN_LAG_SECONDS = Histogram(
    "kingdom_bot_turn_lag_seconds",
    "How long a bot's turn waited between being sent and a worker starting it.",
    buckets=(0.01, 0.05, 0.1, 0.25, 0.5, 1.0, 2.0, 5.0, 10.0, 30.0, 60.0, 300.0),
)
AUDIT_FAILURES = Counter("kingdom_audit_failures_total", "Game audits whose verdict did not pass.")


def counted_command(submit: Callable[P, R]) -> Callable[P, R]:
    """Decorates the write path's submit: counts each command accepted or refused (by
    its error code) and times it. Refusals are logged at INFO with their code; accepted
    commands at DEBUG only: the game's event log records each of them already, and a
    line per move would be a server's busiest log line."""

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


# --- HTTP requests ----------------------------------------------------------------------

METHODS = frozenset({"GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"})


def route_of(request: HttpRequest) -> str:
    """The URL pattern that answered (``api/tables/<uuid:game_id>/``), never the path
    itself: a label per route, not per game or per guessed URL."""
    match = getattr(request, "resolver_match", None)
    if match is not None:
        return match.route or match.view_name or "unnamed"
    if request.path_info.startswith(settings.STATIC_URL):
        return "static"
    return "unmatched"


class RequestMetricsMiddleware:
    """Counts and times each request by route and status; a 5xx counts as an error too.
    Probes and /metrics are answered before it (``ops.health.OpsMiddleware``); API
    clients' moves that skip Django are counted by kingdom_commands_total."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        started = time.perf_counter()
        status = 500
        try:
            response = self.get_response(request)
            status = response.status_code
            return response
        finally:
            method = request.method if request.method in METHODS else "other"
            route = route_of(request)
            HTTP_SECONDS.labels(method, route).observe(time.perf_counter() - started)
            HTTP_REQUESTS.labels(method, route, str(status)).inc()
            if status >= 500:
                HTTP_SERVER_ERRORS.labels(route).inc()


# --- Celery queues and bot-turn lag -----------------------------------------------------

PUBLISHED_HEADER = "kingdom_published_at"
BOT_TURN_TASK = "bots.tasks.take_turn"
# kombu's Redis transport keeps a queue's messages of priority 3, 6 and 9 under keys of
# their own: the queue's name, this separator and the priority.
PRIORITY_KEYS = ("", "\x06\x163", "\x06\x166", "\x06\x169")
QUEUE_READ_TIMEOUT = 0.5  # seconds: a scrape never waits long for a Redis that is down


def stamp_published_at(headers: dict[str, Any] | None = None, **_: Any) -> None:
    """before_task_publish: when the task was sent, for the lag at its start."""
    if headers is not None:
        headers.setdefault(PUBLISHED_HEADER, time.time())


def observe_turn_lag(task: Any = None, **_: Any) -> None:
    """task_prerun: a bot's turn's wait from being sent to being started."""
    if getattr(task, "name", None) != BOT_TURN_TASK:
        return
    request = getattr(task, "request", None)
    published = getattr(request, PUBLISHED_HEADER, None) or (
        (getattr(request, "headers", None) or {}).get(PUBLISHED_HEADER)
    )
    if published is not None:
        BOT_TURN_LAG_SECONDS.observe(max(0.0, time.time() - float(published)))


class QueueCollector:
    """Read at scrape time from the broker: each Celery queue's length and how long its
    oldest task has waited. Nothing when the broker is not Redis; when Redis does not
    answer, ``kingdom_queue_broker_up`` 0 and no queue figures (the scrape still works)."""

    def collect(self) -> Iterator[Any]:
        url = settings.CELERY_BROKER_URL
        if not url.startswith(("redis://", "rediss://", "unix://")):
            return
        up = GaugeMetricFamily(
            "kingdom_queue_broker_up", "Whether the broker answered this scrape (1) or not (0)."
        )
        depth = GaugeMetricFamily(
            "kingdom_queue_depth", "Tasks waiting in a Celery queue.", labels=["queue"]
        )
        oldest = GaugeMetricFamily(
            "kingdom_queue_oldest_seconds",
            "How long the oldest task waiting in a Celery queue has waited.",
            labels=["queue"],
        )
        try:
            for queue, (length, waited) in read_queues(url).items():
                depth.add_metric([queue], length)
                oldest.add_metric([queue], waited)
        except Exception as exc:  # Redis down or slow: the rest of the scrape stands
            log.debug("queue metrics unavailable: %s", exc)
            up.add_metric([], 0)
            yield up
            return
        up.add_metric([], 1)
        yield from (up, depth, oldest)


def read_queues(url: str) -> dict[str, tuple[int, float]]:
    """Queue -> (tasks waiting, seconds the oldest has waited), in one round trip."""
    import redis

    queues = [settings.BOT_QUEUE, settings.CLOCK_QUEUE]
    client = redis.Redis.from_url(
        url, socket_timeout=QUEUE_READ_TIMEOUT, socket_connect_timeout=QUEUE_READ_TIMEOUT
    )
    try:
        with client.pipeline(transaction=False) as pipe:
            for queue in queues:
                for suffix in PRIORITY_KEYS:
                    pipe.llen(queue + suffix)
                    pipe.lindex(queue + suffix, -1)  # LPUSHed, BRPOPped: the oldest
            answers = pipe.execute()
    finally:
        client.close()
    now = time.time()
    found = {}
    for position, queue in enumerate(queues):
        mine = answers[position * 2 * len(PRIORITY_KEYS) : (position + 1) * 2 * len(PRIORITY_KEYS)]
        published = [published_at(raw) for raw in mine[1::2] if raw is not None]
        known = [p for p in published if p is not None]
        found[queue] = (sum(mine[0::2]), max(0.0, now - min(known)) if known else 0.0)
    return found


def published_at(raw: bytes) -> float | None:
    try:
        return float(json.loads(raw)["headers"][PUBLISHED_HEADER])
    except (ValueError, KeyError, TypeError):
        return None


QUEUES = CollectorRegistry()  # read at scrape time only: nothing at registration
QUEUES.register(QueueCollector())


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
    """This process's (or this pod's) metrics, and the queues read from the broker."""
    collecting = registry()
    own = generate_latest(collecting) if collecting else generate_latest()
    return own + generate_latest(QUEUES)


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
