"""The server side of ``bench live``: ASGI server processes started (and stopped) on this
machine, their CPU time from the kernel's own accounting, and PostgreSQL's connection
count sampled while the load runs."""

from __future__ import annotations

import importlib.metadata
import importlib.util
import ipaddress
import os
import secrets
import shlex
import shutil
import socket
import subprocess
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.request
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import quote, urlsplit

from django.conf import settings
from django.core.management.base import CommandError
from django.db import connection

SERVERS = ("daphne", "uvicorn", "granian")
PROCFILE = Path(settings.BASE_DIR) / "deploy" / "Procfile"
CLK_TCK = os.sysconf("SC_CLK_TCK")
READY_SECONDS = 60


@dataclass
class Server:
    url: str
    pid: int | None = None
    process: subprocess.Popen | None = None
    log: Path | None = None
    extra_pids: list[int] = field(default_factory=list)


def require_loopback(url: str) -> str:
    """The bench only ever loads this machine: refuse any other host."""
    parts = urlsplit(url)
    host = parts.hostname or ""
    if parts.scheme != "http" or not host:
        raise CommandError(f"--url {url!r}: give http://127.0.0.1:PORT")
    try:
        loopback = host == "localhost" or ipaddress.ip_address(host).is_loopback
    except ValueError:
        loopback = False
    if not loopback:
        raise CommandError(
            f"--url {url!r} is not a loopback address; the bench loads only this machine"
        )
    return f"http://{parts.netloc}"


def installed(server: str) -> bool:
    return importlib.util.find_spec(server) is not None


def version_of(package: str) -> str | None:
    try:
        return importlib.metadata.version(package)
    except importlib.metadata.PackageNotFoundError:
        return None


def _program(name: str) -> str:
    """The venv's own script next to this interpreter, else whatever is on PATH."""
    local = Path(sys.executable).parent / name
    return str(local) if local.exists() else (shutil.which(name) or name)


def procfile_web() -> list[str]:
    """The Procfile's ``web`` line, in words."""
    line = next(
        ln.split(":", 1)[1] for ln in PROCFILE.read_text().splitlines() if ln.startswith("web:")
    )
    return shlex.split(line)


def deployed_server() -> str:
    """The ASGI server the Procfile's ``web`` line runs: the bench's default."""
    return procfile_web()[0]


def web_command(server: str, port: int) -> list[str]:
    """The Procfile's ``web`` line, on loopback and ``port``; the other servers with the
    same application and their access logs off (the service logs each request itself)."""
    deployed = procfile_web()
    if server == deployed[0]:
        words = [w.replace("${PORT:-8000}", str(port)) for w in deployed]
        words = ["127.0.0.1" if w == "0.0.0.0" else w for w in words]
        return [_program(words[0]), *words[1:]]
    if server == "daphne":
        return [_program("daphne"), "-b", "127.0.0.1", "-p", str(port),
                "kingdom.asgi:application"]  # fmt: skip
    if server == "uvicorn":
        return [_program("uvicorn"), "--host", "127.0.0.1", "--port", str(port),
                "--no-access-log", "--lifespan", "off", "kingdom.asgi:application"]  # fmt: skip
    return [_program("granian"), "--interface", "asgi", "--host", "127.0.0.1",
            "--port", str(port), "kingdom.asgi:application"]  # fmt: skip


def database_url() -> str:
    """The database this process uses (under pytest: the test database), as a URL."""
    db = connection.settings_dict
    if connection.vendor != "postgresql":
        return ""
    user = quote(db["USER"] or "", safe="")
    password = f":{quote(db['PASSWORD'], safe='')}" if db.get("PASSWORD") else ""
    host, port = db["HOST"] or "127.0.0.1", db["PORT"] or "5432"
    # A Unix socket's directory goes percent-encoded in the host part, as libpq reads it.
    return f"postgres://{user}{password}@{quote(host, safe='')}:{port}/{db['NAME']}"


# The started servers' PostgreSQL connections carry this application_name.
SERVER_APP_NAME = "kingdom bench live server"


def server_env() -> dict[str, str]:
    """Production settings on plain http: DEBUG off, a long SECRET_KEY, cookies not
    secure-only; the command rate limit raised out of the way (still counted in Redis)."""
    env = {**os.environ, "DEBUG": "0", "SESSION_COOKIE_SECURE": "0", "CSRF_COOKIE_SECURE": "0"}
    env["PYTHONPATH"] = str(settings.BASE_DIR)
    if len(env.get("SECRET_KEY", "")) < 50:
        env["SECRET_KEY"] = secrets.token_urlsafe(64)
    env["THROTTLE_COMMANDS"] = "1000000/min"
    env["PGAPPNAME"] = SERVER_APP_NAME  # libpq's default application_name: counted apart
    env.pop("DATABASE_URL", None)
    if url := database_url():
        env["DATABASE_URL"] = url
    else:
        env["SQLITE_PATH"] = str(connection.settings_dict["NAME"])
    if settings.REDIS_URL:
        env["REDIS_URL"] = settings.REDIS_URL
    return env


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def start(count: int, server: str) -> list[Server]:
    if server not in SERVERS or not installed(server):
        raise CommandError(f"--server {server}: not installed (pip install {server})")
    env, started = server_env(), []
    logs = Path(tempfile.mkdtemp(prefix="bench-live-"))
    try:
        for n in range(count):
            port = _free_port()
            log = logs / f"{server}-{n}.log"
            process = subprocess.Popen(
                web_command(server, port),
                cwd=settings.BASE_DIR,
                env=env,
                stdout=log.open("w"),
                stderr=subprocess.STDOUT,
                start_new_session=True,  # a Ctrl-C at the bench reaches the bench only
            )
            started.append(Server(f"http://127.0.0.1:{port}", process.pid, process, log))
        for one in started:
            _wait_ready(one)
    except BaseException:
        stop(started)
        raise
    return started


def _wait_ready(server: Server) -> None:
    deadline = time.monotonic() + READY_SECONDS
    while time.monotonic() < deadline:
        if server.process and server.process.poll() is not None:
            tail = server.log.read_text()[-2000:] if server.log else ""
            raise CommandError(f"the server on {server.url} exited:\n{tail}")
        try:
            with urllib.request.urlopen(f"{server.url}/healthz", timeout=2) as response:
                if response.status == 200:
                    return
        except (urllib.error.URLError, OSError):
            pass
        time.sleep(0.2)
    raise CommandError(f"the server on {server.url} did not answer /healthz in {READY_SECONDS}s")


def stop(servers: list[Server]) -> None:
    """Stop the processes this bench started, by their own pid."""
    for server in servers:
        if server.process and server.process.poll() is None:
            server.process.terminate()
    for server in servers:
        if server.process is None:
            continue
        try:
            server.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            server.process.kill()
            server.process.wait(timeout=10)


# ---- CPU time from /proc -------------------------------------------------------------
def _processes() -> dict[int, tuple[int, str]]:
    """Every process on the machine: pid -> (parent pid, name), from /proc."""
    found: dict[int, tuple[int, str]] = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                head, _, rest = (entry / "stat").read_text().rpartition(")")
            except OSError:
                continue
            found[int(entry.name)] = (int(rest.split()[1]), head.partition("(")[2])
    return found


def _children() -> dict[int, list[int]]:
    tree: dict[int, list[int]] = {}
    for pid, (parent, _) in _processes().items():
        tree.setdefault(parent, []).append(pid)
    return tree


def cpu_seconds(pids: list[int]) -> float:
    """utime + stime of the processes, their live descendants, and children they have
    reaped (cutime + cstime), in seconds."""
    tree, ticks, todo, seen = _children(), 0, list(pids), set()
    while todo:
        pid = todo.pop()
        if pid in seen:
            continue
        seen.add(pid)
        try:
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        # After the ")": state is fields[0], so utime..cstime (stat 14..17) are [11:15].
        ticks += sum(int(v) for v in fields[11:15])
        todo += tree.get(pid, [])
    return ticks / CLK_TCK


def service_pids() -> dict[str, list[int]]:
    """The root processes of PostgreSQL ("database") and Redis ("redis") when they run on
    this machine: each process named so whose parent is not (a postmaster, whose
    backends, WAL writer and checkpointer are its children). A service found nowhere has
    no entry; the bench then reports no CPU for it rather than a wrong one."""
    names = {"postgres": "database", "redis-server": "redis"}
    processes = _processes()
    comm = {pid: name for pid, (_, name) in processes.items()}
    parent = {pid: ppid for pid, (ppid, _) in processes.items()}
    found: dict[str, list[int]] = {}
    for pid, name in comm.items():
        if name in names and comm.get(parent[pid]) != name:
            found.setdefault(names[name], []).append(pid)
    return found


# ---- PostgreSQL connections ----------------------------------------------------------
class ConnectionSampler:
    """Samples ``pg_stat_activity`` for this database every ``every`` seconds on a
    connection of its own (not counted). ``peak`` covers the time since ``measure()``.

    ``application_name``: count only the connections of that name, the started servers'
    (``SERVER_APP_NAME``), not other processes on the same database (under the test
    suite, the production tests' cluster). Servers given by ``--url`` are counted by
    database."""

    def __init__(self, every: float = 0.1, application_name: str | None = None) -> None:
        self.every, self.peak, self.samples = every, 0, 0
        self.application_name = application_name
        self._measuring = False
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    def start(self) -> bool:
        if connection.vendor != "postgresql":
            return False
        import psycopg

        self._conn = psycopg.connect(database_url(), autocommit=True)
        self._thread = threading.Thread(target=self._loop, daemon=True)
        self._thread.start()
        return True

    def measure(self) -> None:
        self.peak, self.samples, self._measuring = 0, 0, True

    def _loop(self) -> None:
        query = (
            "SELECT count(*) FROM pg_stat_activity"
            " WHERE datname = current_database() AND pid <> pg_backend_pid()"
        )
        params: tuple[str, ...] = ()
        if self.application_name is not None:
            query, params = f"{query} AND application_name = %s", (self.application_name,)
        stopping = False
        while not stopping:
            # One more sample when stopped: a measured phase shorter than ``every`` (a
            # few fast moves) still reads the connections its servers hold.
            stopping = self._stop.wait(self.every)
            # count(*) always returns its one row.
            (count,) = self._conn.execute(query, params).fetchone()  # type: ignore[misc]
            if self._measuring:
                self.peak, self.samples = max(self.peak, count), self.samples + 1

    def stop(self) -> dict[str, Any]:
        if self._thread is None:
            return {"peak": None, "samples": 0}
        self._stop.set()
        self._thread.join(timeout=5)
        self._conn.close()
        return {"peak": self.peak, "samples": self.samples}
