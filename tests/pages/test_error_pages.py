"""The site's own error pages (404, 403, 400, 500) answer for its pages; Django's debug
pages are kept to a server bound to loopback: ``run.py serve`` on another address runs
with DEBUG off, on a key of its own, still serving its static files and its address."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from django.contrib.auth.models import AnonymousUser
from django.core.exceptions import PermissionDenied
from django.test import Client

import run

pytestmark = pytest.mark.django_db

ROOT = Path(__file__).resolve().parents[2]


def test_an_unknown_page_is_the_sites_404():
    response = Client().get("/no-such-page/")
    assert response.status_code == 404
    assert b'class="brand"' in response.content and b"Page not found" in response.content


def test_a_host_not_allowed_is_the_sites_400():
    response = Client().get("/leaderboard/", HTTP_HOST="evil.example")
    assert response.status_code == 400
    assert b"Bad request" in response.content and b"Traceback" not in response.content


def test_a_forbidden_page_is_the_sites_403(rf):
    from games.api.errors import permission_denied_page

    request = rf.get("/tables/")
    request.user = AnonymousUser()
    page = permission_denied_page(request, PermissionDenied())
    assert page.status_code == 403
    assert b'class="brand"' in page.content and b"Not allowed" in page.content


def test_the_500_page_needs_nothing_but_itself():
    from django.template.loader import get_template

    page = get_template("500.html").render()
    assert "Something went wrong" in page


@pytest.mark.parametrize(
    "address, debug",
    [
        ("127.0.0.1:8000", None),
        ("localhost:8001", None),
        ("[::1]:8000", None),
        ("8000", None),
        ("0.0.0.0:8000", "0"),
        ("192.168.1.20:8000", "0"),
    ],
)
def test_serve_turns_debug_off_away_from_loopback(address, debug):
    env = run.serve_environment(address, {})
    assert env.get("DEBUG") == debug
    if debug is not None:
        hosts = env["ALLOWED_HOSTS"].split(",")
        assert "127.0.0.1" in hosts and "localhost" in hosts
        host = address.rsplit(":", 1)[0]
        if host != "0.0.0.0":
            assert host in hosts


def test_serve_keeps_a_debug_chosen_on_purpose():
    assert run.serve_environment("0.0.0.0:8000", {"DEBUG": "1"})["DEBUG"] == "1"


def test_the_embedded_mode_beyond_loopback_starts_with_debug_off_on_a_key_of_its_own(tmp_path):
    env = {
        k: v
        for k, v in os.environ.items()
        if k not in {"SECRET_KEY", "DEBUG", "DATABASE_URL", "REDIS_URL", "HTTPS"}
    }
    env.update(
        DJANGO_SETTINGS_MODULE="kingdom.settings",
        PYTHONPATH=str(ROOT),
        SECRET_KEY_FILE=str(tmp_path / "secret"),
        SQLITE_PATH=str(tmp_path / "db.sqlite3"),
    )
    env = run.serve_environment("0.0.0.0:8000", env)
    code = (
        "import django; django.setup(); from django.conf import settings; "
        "from django.test import Client; "
        "print(settings.DEBUG, settings.SESSION_COOKIE_SECURE, len(settings.SECRET_KEY)); "
        "print(Client().get('/static/css/site.css', HTTP_HOST='127.0.0.1').status_code)"
    )
    runs = [
        subprocess.run(
            [sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True
        )
        for _ in range(2)
    ]
    for done in runs:
        assert done.returncode == 0, done.stderr[-2000:]
    debug, secure_cookie, key_length, static = runs[0].stdout.split()
    assert (debug, secure_cookie) == ("False", "False")  # plain http on a LAN: cookies work
    assert int(key_length) >= 50 and static == "200"
    assert (tmp_path / "secret").read_text().strip()
    assert runs[0].stdout == runs[1].stdout  # the same key on the next start


def test_with_debug_on_a_missing_page_is_still_the_sites_404(settings):
    """``run.py serve`` on loopback runs with DEBUG on: a mistyped link, a missing table,
    a missing player still get the site's page, never Django's list of URL patterns."""
    settings.DEBUG = True
    client = Client()
    for path in ("/no-such-page/", "/players/nobody-here/", "/accounts/nothing/"):
        response = client.get(path)
        assert response.status_code == 404, path
        assert b'class="brand"' in response.content, path
        assert b"Page not found" in response.content, path
        assert b"URLconf" not in response.content, path
    api = client.get("/api/no-such-thing/")
    assert api.status_code == 404 and api.json()["code"] == "not_found"
    # Without its slash a page still redirects to the page (CommonMiddleware runs outside).
    assert client.get("/leaderboard").status_code == 301
