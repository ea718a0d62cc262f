"""Health probes: ``/healthz`` (the process answers) and ``/readyz`` (it can serve, and
how its shared dependencies are).

Plain Django views (no DRF: no authentication, no throttles), answered by
``OpsMiddleware`` at the head of MIDDLEWARE so that a kubelet or Docker probe that calls
the pod by its IP passes neither through ALLOWED_HOSTS nor the HTTPS redirect, and makes
no access-log line. /metrics is answered there too, for the same reasons.
"""

from __future__ import annotations

import asyncio
import logging
import threading
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor, wait
from typing import Any

from asgiref.sync import async_to_sync
from django.conf import settings
from django.db import DEFAULT_DB_ALIAS, connections
from django.db.migrations.executor import MigrationExecutor
from django.http import HttpRequest, HttpResponse, JsonResponse

log = logging.getLogger(__name__)
# Seconds the dependency checks of one /readyz may take together; a check still running
# then is reported as not answering (the kubelet's probe times out at 5 s).
PROBE_TIMEOUT = 2.0
_migrated = threading.Event()
# The dependency checks run here, side by side, so a hung one cannot hold the probe.
_checking = ThreadPoolExecutor(max_workers=6, thread_name_prefix="readyz")


def healthz(request: HttpRequest) -> JsonResponse:
    """Liveness: no database, no Redis. A pod restarted for a database outage would not
    help, so only a wedged process fails this."""
    return JsonResponse({"status": "ok"})


def readyz(request: HttpRequest) -> JsonResponse:
    """Readiness: whether this process can serve, i.e. the database schema is the one
    its code expects (no unapplied migration: a pod of a new release waits for the
    migrate Job). 503 names what is missing.

    The shared dependencies (the database, Redis, the channel layer) are checked and
    reported in ``dependencies`` and in ``kingdom_dependency_up``, but do not decide
    readiness: an outage of one is the same for every pod, and taking them all out of
    the Service at once would turn what the pods can still answer (pages and reads that
    need no Redis, the JSON 503s that say what is down) into the ingress's bare 503s.
    """
    checks: dict[str, str] = {}
    for name, check in READINESS_CHECKS:
        checks[name] = outcome(check)
    ready = all(not value.startswith("failed") for value in checks.values())
    dependencies = dependency_states()
    healthy = all(not value.startswith("failed") for value in dependencies.values())
    status = "unavailable" if not ready else "ok" if healthy else "degraded"
    return JsonResponse(
        {"status": status, "checks": checks, "dependencies": dependencies},
        status=200 if ready else 503,
    )


def outcome(check: Callable[[], str]) -> str:
    try:
        return check()
    except Exception as exc:  # any failure is reported, with its reason
        return f"failed: {type(exc).__name__}: {exc}"[:300]


def _checked_apart(check: Callable[[], str]) -> str:
    try:
        return outcome(check)
    finally:
        connections.close_all()  # this thread's connections go back (to the pool)


def dependency_states() -> dict[str, str]:
    """Each shared dependency's state, all checked at once within PROBE_TIMEOUT; each
    also sets its ``kingdom_dependency_up`` gauge."""
    from infra.metrics import DEPENDENCY_UP

    running = {name: _checking.submit(_checked_apart, check) for name, check in DEPENDENCY_CHECKS}
    wait(running.values(), timeout=PROBE_TIMEOUT)
    states = {
        name: future.result() if future.done() else f"failed: no answer within {PROBE_TIMEOUT:g} s"
        for name, future in running.items()
    }
    for name, state in states.items():
        DEPENDENCY_UP.labels(name).set(0 if state.startswith("failed") else 1)
    return states


def check_database() -> str:
    with connections[DEFAULT_DB_ALIAS].cursor() as cursor:
        cursor.execute("SELECT 1")
    return "ok"


def check_migrations() -> str:
    """No unapplied migration. Once true it stays true for this process (the code's
    migrations cannot change under it), so the migration graph is read once, not at
    every probe, and a later database outage does not make the pod unready."""
    if _migrated.is_set():
        return "ok"
    executor = MigrationExecutor(connections[DEFAULT_DB_ALIAS])
    plan = executor.migration_plan(executor.loader.graph.leaf_nodes())
    if plan:
        pending = ", ".join(f"{m.app_label}.{m.name}" for m, _ in plan[:5])
        raise RuntimeError(f"{len(plan)} unapplied migrations ({pending})")
    _migrated.set()
    return "ok"


def check_redis() -> str:
    if not settings.REDIS_URL:
        return "not configured"
    import redis

    client = redis.Redis.from_url(
        settings.REDIS_URL, socket_timeout=PROBE_TIMEOUT, socket_connect_timeout=PROBE_TIMEOUT
    )
    try:
        client.ping()
    finally:
        client.close()
    return "ok"


def check_channel_layer() -> str:
    """One message sent to a fresh channel and received back."""
    from channels.layers import get_channel_layer

    layer = get_channel_layer()
    if layer is None:
        return "not configured"

    async def round_trip() -> None:
        channel = await layer.new_channel("readyz.")
        await layer.send(channel, {"type": "readyz.ping"})
        message = await asyncio.wait_for(layer.receive(channel), PROBE_TIMEOUT)
        if message.get("type") != "readyz.ping":
            raise RuntimeError(f"unexpected message {message!r}")

    async_to_sync(round_trip)()
    return "ok"


# What decides readiness: this process's own state.
READINESS_CHECKS: list[tuple[str, Callable[[], str]]] = [("migrations", check_migrations)]
# What is reported: the dependencies every pod shares.
DEPENDENCY_CHECKS: list[tuple[str, Callable[[], str]]] = [
    ("database", check_database),
    ("redis", check_redis),
    ("channel_layer", check_channel_layer),
]


class OpsMiddleware:
    """Answers /healthz, /readyz and /metrics before any other middleware."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response
        from infra.metrics import metrics_view

        self.views: dict[str, Callable[[HttpRequest], Any]] = {
            "/healthz": healthz,
            "/readyz": readyz,
            "/metrics": metrics_view,
        }

    def __call__(self, request: HttpRequest) -> HttpResponse:
        view = self.views.get(request.path_info.rstrip("/"))
        if view is not None and request.method in {"GET", "HEAD"}:
            return view(request)
        return self.get_response(request)
