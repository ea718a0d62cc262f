"""Health probes: ``/healthz`` (the process answers) and ``/readyz`` (it can serve).

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
from typing import Any

from asgiref.sync import async_to_sync
from django.conf import settings
from django.db import DEFAULT_DB_ALIAS, connections
from django.db.migrations.executor import MigrationExecutor
from django.http import HttpRequest, HttpResponse, JsonResponse

log = logging.getLogger(__name__)
# Seconds a readiness dependency may take before the pod is reported not ready.
PROBE_TIMEOUT = 2.0
_migrated = threading.Event()


def healthz(request: HttpRequest) -> JsonResponse:
    """Liveness: no database, no Redis. A pod restarted for a database outage would not
    help, so only a wedged process fails this."""
    return JsonResponse({"status": "ok"})


def readyz(request: HttpRequest) -> JsonResponse:
    """Readiness: the database answers and has every migration applied, Redis answers
    (when configured) and a message goes round the channel layer. 503 names the check
    that failed."""
    checks: dict[str, str] = {}
    for name, check in READINESS_CHECKS:
        try:
            checks[name] = check()
        except Exception as exc:  # any failure means "not ready", with its reason
            checks[name] = f"failed: {type(exc).__name__}: {exc}"[:300]
    ready = all(not value.startswith("failed") for value in checks.values())
    return JsonResponse(
        {"status": "ok" if ready else "unavailable", "checks": checks},
        status=200 if ready else 503,
    )


def check_database() -> str:
    with connections[DEFAULT_DB_ALIAS].cursor() as cursor:
        cursor.execute("SELECT 1")
    return "ok"


def check_migrations() -> str:
    """No unapplied migration. Once true it stays true for this process (the code's
    migrations cannot change under it), so the migration graph is read once, not at
    every probe."""
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


READINESS_CHECKS: list[tuple[str, Callable[[], str]]] = [
    ("database", check_database),
    ("migrations", check_migrations),
    ("redis", check_redis),
    ("channel_layer", check_channel_layer),
]


class OpsMiddleware:
    """Answers /healthz, /readyz and /metrics before any other middleware."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response
        from kingdom.ops.metrics import metrics_view

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
