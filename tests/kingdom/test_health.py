"""/healthz and /readyz: plain JSON views, answered ahead of host checks, redirects,
throttles and the access log."""

from __future__ import annotations

import logging

import pytest
from django.db import connection
from django.db.migrations.recorder import MigrationRecorder

from kingdom.ops import health
from kingdom.ops.channel_layer import BACKENDS, redis_channel_layer
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
    assert body["checks"]["database"] == "ok"
    assert body["checks"]["migrations"] == "ok"
    assert body["checks"]["channel_layer"] == "ok"
    assert body["checks"]["redis"] in {"ok", "not configured"}


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
    assert body["checks"]["database"] == "ok"
    # Applied again (what the migrate Job does): ready.
    recorder.record_applied(app, name)
    assert client.get("/readyz").status_code == 200


def test_readyz_is_unavailable_when_redis_does_not_answer(client, settings, db):
    settings.REDIS_URL = UNREACHABLE_REDIS
    response = client.get("/readyz")
    assert response.status_code == 503
    assert response.json()["checks"]["redis"].startswith("failed: ConnectionError")


def test_readyz_is_unavailable_when_the_channel_layer_does_not_answer(client, settings, db):
    settings.CHANNEL_LAYERS = {"default": redis_channel_layer(UNREACHABLE_REDIS)}
    response = client.get("/readyz")
    assert response.status_code == 503
    assert response.json()["checks"]["channel_layer"].startswith("failed")


@needs_redis
@pytest.mark.parametrize("kind", sorted(BACKENDS))
def test_readyz_goes_round_the_redis_channel_layer(client, settings, db, kind):
    import os

    settings.REDIS_URL = os.environ["REDIS_URL"]
    settings.CHANNEL_LAYERS = {"default": redis_channel_layer(settings.REDIS_URL, kind)}
    body = client.get("/readyz").json()
    assert body["checks"] == {
        "database": "ok",
        "migrations": "ok",
        "redis": "ok",
        "channel_layer": "ok",
    }


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
