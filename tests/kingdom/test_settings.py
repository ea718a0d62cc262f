"""Production settings: a weak SECRET_KEY or a missing SIGNING_KEY refuses to start, `check --deploy` is clean,
Sentry only when SENTRY_DSN is set, the clock sweep on a queue of its own. Each case
imports the settings in a fresh process with its own environment."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from infra.security import DEV_SECRET_KEY

ROOT = Path(__file__).resolve().parents[2]
LONG_KEY = "prod-like-" + "Zq8#vR2!mK5@" * 5
# base64 of 32 bytes: an Ed25519 private key as the deployment's secret holds it.
SIGNING_KEY = "cHJvZC1saWtlLXNpZ25pbmcta2V5LTMyLWJ5dGVzISE="
# What a production process is started with (the k8s ConfigMap and Secret set these).
PRODUCTION = {
    "DEBUG": "0",
    "SECRET_KEY": LONG_KEY,
    "SIGNING_KEY": SIGNING_KEY,
    "ALLOWED_HOSTS": "kingdom.example.org",
    "CSRF_TRUSTED_ORIGINS": "https://kingdom.example.org",
    "HTTPS": "1",
}


def run_django(code: str, **env: str) -> subprocess.CompletedProcess:
    base = {
        k: v
        for k, v in os.environ.items()
        if k
        not in {
            "SECRET_KEY",
            "SIGNING_KEY",
            "NUM_PROXIES",
            "DEBUG",
            "SENTRY_DSN",
            "HTTPS",
            "CLOCK_QUEUE",
            "BOT_QUEUE",
        }
    }
    base.update(DJANGO_SETTINGS_MODULE="kingdom.settings", PYTHONPATH=str(ROOT), **env)
    return subprocess.run(
        [sys.executable, "-c", code],
        cwd=ROOT,
        env=base,
        capture_output=True,
        text=True,
        timeout=120,
    )


SETUP = "import django; django.setup(); from django.conf import settings; "


@pytest.mark.parametrize(
    "key",
    [None, DEV_SECRET_KEY, "short-key", "a" * 60, "django-insecure-" + "x1y2z3w4v5" * 5],
    ids=["unset", "development key", "short", "five distinct characters", "django-insecure"],
)
def test_with_debug_off_a_weak_or_missing_secret_key_refuses_to_start(key):
    env = {**PRODUCTION}
    env.pop("SECRET_KEY")
    if key is not None:
        env["SECRET_KEY"] = key
    done = run_django(SETUP + "print('started')", **env)
    assert done.returncode != 0
    assert "ImproperlyConfigured" in done.stderr
    assert "SECRET_KEY" in done.stderr
    assert "started" not in done.stdout


@pytest.mark.parametrize(
    "key",
    [None, "", "not-a-key", "c2hvcnQta2V5LTE2LWJ5dGU="],
    ids=["unset", "empty", "not base64", "16 bytes"],
)
def test_with_debug_off_a_missing_or_malformed_signing_key_refuses_to_start(key):
    # Without it each process would make a key file of its own, which a read-only root
    # file system refuses at the first checkpoint (and several pods would sign apart).
    env = {**PRODUCTION}
    env.pop("SIGNING_KEY")
    if key is not None:
        env["SIGNING_KEY"] = key
    done = run_django(SETUP + "print('started')", **env)
    assert done.returncode != 0
    assert "ImproperlyConfigured" in done.stderr
    assert "SIGNING_KEY" in done.stderr
    assert "started" not in done.stdout


def test_with_debug_off_the_deployment_s_signing_key_signs():
    code = SETUP + (
        "from games.storage import signing; "
        "print(signing.public_b64(signing.server_key()) == "
        "signing.public_b64(signing.parse_private_key(settings.SIGNING_KEY)))"
    )
    done = run_django(code, **PRODUCTION)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "True"


def test_the_embedded_mode_starts_without_a_signing_key():
    done = run_django(SETUP + "print(repr(settings.SIGNING_KEY))", DEBUG="1")
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "''"


def test_the_embedded_mode_still_starts_on_the_development_key():
    done = run_django(SETUP + "print(settings.DEBUG, settings.SECRET_KEY)", DEBUG="1")
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["True", DEV_SECRET_KEY]


def test_production_settings_pass_check_deploy_with_no_warning(tmp_path):
    done = subprocess.run(
        [sys.executable, "manage.py", "check", "--deploy", "--fail-level", "WARNING"],
        cwd=ROOT,
        env={
            **{k: v for k, v in os.environ.items() if k != "SECRET_KEY"},
            "DJANGO_SETTINGS_MODULE": "kingdom.settings",
            # PostgreSQL when the suite has it (DATABASE_URL), else a SQLite file.
            "DATABASE_URL": os.environ.get("DATABASE_URL", f"sqlite:///{tmp_path / 'db.sqlite3'}"),
            **PRODUCTION,
        },
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert "System check identified no issues" in done.stdout


def test_production_defaults_are_secure_and_plain_http_is_opt_in():
    code = SETUP + (
        "print(settings.SESSION_COOKIE_SECURE, settings.CSRF_COOKIE_SECURE, "
        "settings.SECURE_HSTS_SECONDS, settings.SECURE_SSL_REDIRECT, "
        "getattr(settings, 'SECURE_PROXY_SSL_HEADER', None), settings.LOG_FORMAT)"
    )
    behind_tls = run_django(code, **PRODUCTION)
    assert behind_tls.returncode == 0, behind_tls.stderr
    assert behind_tls.stdout.strip() == (
        "True True 31536000 True ('HTTP_X_FORWARDED_PROTO', 'https') json"
    )
    # No HTTPS=1: secure cookies and HSTS still, but no redirect, no trusted proxy header.
    plain = run_django(code, **{k: v for k, v in PRODUCTION.items() if k != "HTTPS"})
    assert plain.stdout.strip() == "True True 31536000 False None json"


def test_sentry_is_off_without_a_dsn_and_on_with_the_django_and_celery_integrations():
    code = SETUP + (
        "import sentry_sdk; c = sentry_sdk.get_client(); "
        "print(settings.SENTRY_ENABLED, c.is_active(), "
        "sorted(k for k in c.integrations if k in {'django', 'celery'}))"
    )
    off = run_django(code, **PRODUCTION)
    assert off.returncode == 0, off.stderr
    assert off.stdout.strip() == "False False []"
    # Nothing is sent: no event is raised, and the DSN points at a closed local port.
    on = run_django(code, SENTRY_DSN="http://public@127.0.0.1:1/1", **PRODUCTION)
    assert on.returncode == 0, on.stderr
    assert on.stdout.strip() == "True True ['celery', 'django']"


def test_the_clock_sweep_has_a_queue_of_its_own_and_bot_turns_keep_theirs():
    code = (
        SETUP + "from kingdom.celery import app; r = app.amqp.router; "
        "print(r.route({}, 'bots.tasks.sweep_clocks')['queue'].name, "
        "r.route({}, 'bots.tasks.take_turn')['queue'].name)"
    )
    default = run_django(code, **PRODUCTION)
    assert default.returncode == 0, default.stderr
    assert default.stdout.split() == ["clocks", "bots"]
    # Test runs (and parallel deployments on one Redis) name both queues.
    isolated = run_django(code, CLOCK_QUEUE="clocks-t1", BOT_QUEUE="bots-t1", **PRODUCTION)
    assert isolated.stdout.split() == ["clocks-t1", "bots-t1"]
