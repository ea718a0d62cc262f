"""/healthz and /readyz: plain JSON views, answered ahead of host checks, redirects,
throttles and the access log."""

from __future__ import annotations

import logging
import threading

import pytest
from django.db import OperationalError, connection
from django.db.migrations.recorder import MigrationRecorder

from infra import health
from infra.channel_layer import BACKENDS, redis_channel_layer
from tests.conftest import needs_redis

UNREACHABLE_REDIS = "redis://127.0.0.1:1/0"  # port 1: nothing listens, refused at once


@pytest.fixture(autouse=True)
def _forget_migrated():
    health._migrated.clear()
    yield
    health._migrated.clear()


def test_healthz_answers_without_the_database(client):
    # No db fixture: pytest-django's block makes any query raise.
    response = client.get("/healthz")
    assert response.status_code == 200
    assert response.json() == {"status": "ok"}


def test_probes_by_pod_ip_pass_allowed_hosts_and_the_https_redirect(client, settings, db):
    settings.SECURE_SSL_REDIRECT = True
    settings.ALLOWED_HOSTS = ["kingdom.example.org"]
    # A kubelet calls the pod by its IP over plain http.
    assert client.get("/healthz", HTTP_HOST="10.1.2.3:8000").status_code == 200
    assert client.get("/readyz", HTTP_HOST="10.1.2.3:8000").status_code == 200
    # Everything else still goes through both.
    assert client.get("/", HTTP_HOST="10.1.2.3:8000").status_code == 400
    assert client.get("/", HTTP_HOST="kingdom.example.org").status_code == 301


def test_readyz_reports_every_check_when_ready(client, db):
    response = client.get("/readyz")
    assert response.status_code == 200
    body = response.json()
    assert body["status"] == "ok"
    assert body["checks"] == {"migrations": "ok"}
    assert body["dependencies"]["database"] == "ok"
    assert body["dependencies"]["channel_layer"] == "ok"
    assert body["dependencies"]["redis"] in {"ok", "not configured"}


def test_readyz_is_unavailable_while_a_migration_is_unapplied(client, db):
    recorder = MigrationRecorder(connection)
    applied = sorted(k for k in recorder.applied_migrations() if k[0] == "games")
    app, name = applied[-1]
    recorder.record_unapplied(app, name)
    response = client.get("/readyz")
    assert response.status_code == 503
    body = response.json()
    assert body["status"] == "unavailable"
    assert body["checks"]["migrations"].startswith("failed")
    assert f"{app}.{name}" in body["checks"]["migrations"]
    # Applied again (what the migrate Job does): ready.
    recorder.record_applied(app, name)
    assert client.get("/readyz").status_code == 200


def dependency_up(client, dependency: str) -> float:
    lines = client.get("/metrics").content.decode().splitlines()
    (value,) = [
        line.rsplit(" ", 1)[1]
        for line in lines
        if line.startswith(f'kingdom_dependency_up{{dependency="{dependency}"}}')
    ]
    return float(value)


def test_a_redis_outage_keeps_every_pod_serving_and_is_reported(client, settings, db):
    # A shared dependency's blip must not take every web pod out of the Service at once
    # (the ingress would answer 503 to everything, reads included).
    settings.REDIS_URL = UNREACHABLE_REDIS
    response = client.get("/readyz")
    assert response.status_code == 200
    body = response.json()
    assert body["status"] == "degraded"
    assert body["dependencies"]["redis"].startswith("failed: ConnectionError")
    assert dependency_up(client, "redis") == 0
    assert dependency_up(client, "database") == 1


def test_a_channel_layer_outage_keeps_the_pod_ready_and_is_reported(client, settings, db):
    settings.CHANNEL_LAYERS = {"default": redis_channel_layer(UNREACHABLE_REDIS)}
    response = client.get("/readyz")
    assert response.status_code == 200
    assert response.json()["dependencies"]["channel_layer"].startswith("failed")
    assert dependency_up(client, "channel_layer") == 0


def test_a_database_outage_keeps_a_migrated_pod_ready(client, db, monkeypatch):
    assert client.get("/readyz").status_code == 200  # its schema is known to be current

    def refused() -> str:
        raise OperationalError("connection refused")

    monkeypatch.setattr(health, "DEPENDENCY_CHECKS", [("database", refused)])
    response = client.get("/readyz")
    assert response.status_code == 200
    assert response.json()["dependencies"] == {
        "database": "failed: OperationalError: connection refused"
    }


def test_a_pod_that_never_saw_its_schema_is_not_ready_while_the_database_is_down(
    client, db, monkeypatch
):
    def refused(connection):
        raise OperationalError("connection refused")

    monkeypatch.setattr(health, "MigrationExecutor", refused)
    response = client.get("/readyz")
    assert response.status_code == 503
    assert response.json()["checks"]["migrations"].startswith("failed: OperationalError")


def test_a_dependency_that_hangs_does_not_hold_the_probe(client, db, monkeypatch):
    released = threading.Event()

    def hangs() -> str:
        released.wait(30)
        return "ok"

    monkeypatch.setattr(health, "PROBE_TIMEOUT", 0.2)
    monkeypatch.setattr(health, "DEPENDENCY_CHECKS", [("redis", hangs)])
    try:
        response = client.get("/readyz")
    finally:
        released.set()
    assert response.status_code == 200
    assert response.json()["dependencies"] == {"redis": "failed: no answer within 0.2 s"}


@needs_redis
@pytest.mark.parametrize("kind", sorted(BACKENDS))
def test_readyz_goes_round_the_redis_channel_layer(client, settings, db, kind):
    import os

    settings.REDIS_URL = os.environ["REDIS_URL"]
    settings.CHANNEL_LAYERS = {"default": redis_channel_layer(settings.REDIS_URL, kind)}
    body = client.get("/readyz").json()
    assert body["checks"] == {"migrations": "ok"}
    assert body["dependencies"] == {"database": "ok", "redis": "ok", "channel_layer": "ok"}


def test_probes_make_no_access_log_line_and_pages_do(client, db, caplog):
    with caplog.at_level(logging.INFO, logger="kingdom.access"):
        client.get("/healthz")
        client.get("/readyz")
        client.get("/api/rulesets/")
    paths = [r.path for r in caplog.records if r.name == "kingdom.access"]
    assert paths == ["/api/rulesets/"]


def test_probes_are_not_rate_limited_or_authenticated(client, db):
    # Plain Django views: no DRF authentication, permission or throttle classes apply.
    statuses = {client.get("/healthz").status_code for _ in range(200)}
    assert statuses == {200}
    assert not hasattr(health.healthz, "cls") and not hasattr(health.readyz, "cls")
