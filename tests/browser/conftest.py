"""Browser tests: the real server (daphne ASGI, WebSockets) and Debian's chromium.

The server runs in a subprocess in the embedded mode (SQLite in a temporary file,
in-memory channel layer, bot turns in a thread): ``DATABASE_URL`` and ``REDIS_URL`` are
removed from its environment. pytest-django's database fixtures do not reach it, so
players sign up through the page; ``server_env.manage(...)`` runs a ``manage.py`` command
against the same database (``moderator_token`` uses it to make a moderator).
"""

from __future__ import annotations

import itertools
import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from tests.browser.helpers import PASSWORD, api_post, wait_for_lobby

ROOT = Path(__file__).resolve().parents[2]
ARTIFACTS = ROOT / "tests" / "artifacts"
CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--headless=new",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def _wait_for_port(port: int, process: subprocess.Popen, log: Path, timeout: float = 30) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"the server exited early:\n{log.read_text()[-3000:]}")
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.5):
                return
        except OSError:
            time.sleep(0.1)
    raise RuntimeError(f"the server did not open port {port}:\n{log.read_text()[-3000:]}")


@dataclass
class ServerEnv:
    """The browser server's environment: its port, its working directory (with the SQLite
    file) and the process environment that ``manage.py`` commands share with it."""

    port: int
    workdir: Path
    env: dict[str, str]

    def mails(self) -> list[str]:
        """Every mail the server sent so far, oldest first (its file backend's files)."""
        folder = self.workdir / "mail"
        files = sorted(folder.glob("*.log"), key=lambda f: f.stat().st_mtime_ns)
        return [m for f in files for m in f.read_text().split("-" * 79) if m.strip()]

    def manage(self, *args: str, timeout: float = 120) -> subprocess.CompletedProcess:
        """Run ``manage.py <args>`` against the server's database; fails with its output."""
        done = subprocess.run(
            [sys.executable, str(ROOT / "manage.py"), *args],
            cwd=ROOT,
            env=self.env,
            timeout=timeout,
            capture_output=True,
            text=True,
        )
        if done.returncode:
            raise RuntimeError(f"manage.py {' '.join(args)} failed:\n{done.stdout}{done.stderr}")
        return done


@pytest.fixture(scope="session")
def server_env(tmp_path_factory: pytest.TempPathFactory) -> ServerEnv:
    """The embedded mode (SQLite in a temporary file, in-memory channel layer, bot turns in
    a thread) on a free port, migrated."""
    workdir = tmp_path_factory.mktemp("browser-server")
    port = _free_port()
    env = {k: v for k, v in os.environ.items() if k not in {"DATABASE_URL", "REDIS_URL"}}
    env.update(
        SQLITE_PATH=str(workdir / "db.sqlite3"),
        BOT_RUNNER="thread",
        BOT_MOVE_DELAY="0.05",
        DEBUG="1",
        ALLOWED_HOSTS="127.0.0.1,localhost",
        CSRF_TRUSTED_ORIGINS=f"http://127.0.0.1:{port}",
        PYTHONUNBUFFERED="1",
        THROTTLE_SIGNUP="off",  # every player of the session signs up from this address
        # Mail as files a test reads (``server_env.mails()``): the server is another process.
        EMAIL_BACKEND="django.core.mail.backends.filebased.EmailBackend",
        EMAIL_FILE_PATH=str(workdir / "mail"),
        # Quick match's shortest wait before bots, short enough for a test to see it pass.
        QUICK_MATCH_WAITS="3,60,120",
    )
    env.pop("DJANGO_SETTINGS_MODULE", None)
    server = ServerEnv(port=port, workdir=workdir, env=env)
    server.manage("migrate", "--noinput", "-v", "0")
    return server


@pytest.fixture(scope="session")
def server_url(server_env: ServerEnv) -> Iterator[str]:
    """``manage.py runserver`` (daphne) on the environment's port, killed on teardown."""
    port = server_env.port
    log = server_env.workdir / "server.log"
    with log.open("wb") as out:
        process = subprocess.Popen(
            [
                sys.executable,
                str(ROOT / "manage.py"),
                "runserver",
                f"127.0.0.1:{port}",
                "--noreload",
            ],
            cwd=ROOT,
            env=server_env.env,
            stdout=out,
            stderr=subprocess.STDOUT,
        )
    try:
        _wait_for_port(port, process, log)
        yield f"http://127.0.0.1:{port}"
    finally:
        process.send_signal(signal.SIGINT)  # runserver's Ctrl-C: a quick, clean stop
        try:
            process.wait(timeout=5)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(timeout=10)


@pytest.fixture(scope="session")
def moderator_token(server_env: ServerEnv, server_url: str) -> str:
    """A moderator's API token: signed up through the API, made a moderator with
    ``manage.py moderator`` on the server's database."""
    name = f"mod{os.getpid() % 10000}"
    token = api_post(server_url, "/api/auth/signup/", {"username": name, "password": PASSWORD})[
        "token"
    ]
    done = server_env.manage("moderator", name)
    assert f"{name} is a moderator" in done.stdout
    return token


@pytest.fixture(scope="module")
def browser() -> Iterator[object]:
    """Debian's chromium (never a downloaded browser); Playwright gives it a fresh
    temporary user-data dir on every launch.

    One per test module, not per session: Playwright's sync API leaves its event loop
    marked as running in the main thread while it is open, and Django then refuses
    database access in the tests that follow ("You cannot call this from an async
    context")."""
    if not Path(CHROMIUM).exists():
        pytest.fail(f"{CHROMIUM} is missing: install Debian's package (apt-get install chromium)")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=CHROMIUM, args=CHROMIUM_ARGS, headless=True
        )
        yield browser
        browser.close()


@pytest.fixture(scope="session")
def artifacts() -> Path:
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    return ARTIFACTS


@dataclass
class Player:
    name: str
    page: object  # playwright Page
    context: object  # playwright BrowserContext
    errors: list[str]


_names = itertools.count(1)


@pytest.fixture
def new_player(browser, server_url: str) -> Iterator[Callable[..., Player]]:
    """``new_player()`` opens a fresh browser context and signs a new user up through
    the sign-up page; the player lands in the lobby, logged in."""
    contexts = []

    def make(prefix: str = "p", width: int = 1280, height: int = 900) -> Player:
        context = browser.new_context(
            base_url=server_url, viewport={"width": width, "height": height}
        )
        context.set_default_timeout(15000)
        contexts.append(context)
        page = context.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda exc: errors.append(str(exc)))
        page.on(
            "console",
            lambda msg: errors.append(msg.text)
            if msg.type == "error" and not msg.text.startswith("Failed to load resource")
            else None,
        )
        name = f"{prefix}{os.getpid() % 10000}x{next(_names)}"
        page.goto("/accounts/signup/")
        page.fill("#id_username", name)
        page.fill("#id_password1", PASSWORD)
        page.fill("#id_password2", PASSWORD)
        page.click("button[type=submit]")
        page.wait_for_url(f"{server_url}/")
        wait_for_lobby(page)
        return Player(name=name, page=page, context=context, errors=errors)

    yield make
    for context in contexts:
        context.close()
