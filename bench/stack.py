"""The production shape on this machine, with dependencies of its own that may be stopped:
a PostgreSQL cluster made with initdb in a temporary directory, a redis-server without
persistence, and the processes of deploy/Procfile (two web, the Celery worker, the clocks
worker and beat) started from the Procfile's own lines. ``bench faults`` and tests/faults
break these on purpose."""

from __future__ import annotations

import base64
import contextlib
import glob
import os
import secrets
import shlex
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import psycopg

ROOT = Path(__file__).resolve().parents[1]
PROCFILE = ROOT / "deploy" / "Procfile"
WEB = "web"
RELEASE = "release"
START_SECONDS = 60
# PostgreSQL refuses to run as root: the cluster then belongs to this account.
POSTGRES_ACCOUNT = "postgres"
DATABASE = "kingdom"


class Missing(RuntimeError):
    """A program the stack needs is not installed."""


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def wait_until(condition: Callable[[], object], what: str, seconds: float, step=0.1) -> None:
    deadline = time.monotonic() + seconds
    while not condition():
        if time.monotonic() > deadline:
            raise TimeoutError(f"timed out after {seconds:g} s waiting for {what}")
        time.sleep(step)


def procfile() -> dict[str, str]:
    """Process type -> command line, in the file's order."""
    lines = {}
    for raw in PROCFILE.read_text().splitlines():
        name, sep, command = raw.strip().partition(":")
        if sep and name and not name.startswith("#"):
            lines[name.strip()] = command.strip()
    return lines


class Process:
    """A process in a group of its own, so that a kill takes its children too."""

    def __init__(self, name: str, argv: list[str], env: dict[str, str], cwd: Path, log: Path):
        self.name, self.argv, self.env, self.cwd, self.log = name, argv, env, cwd, log
        self.popen: subprocess.Popen | None = None

    def start(self) -> Process:
        with self.log.open("a") as out:
            # A process restarted writes on into the same log: each start is marked.
            out.write(f"--- start: {shlex.join(self.argv)}\n")
            out.flush()
            self.popen = subprocess.Popen(
                self.argv,
                cwd=self.cwd,
                env=self.env,
                stdout=out,
                stderr=subprocess.STDOUT,
                start_new_session=True,
            )
        return self

    @property
    def pid(self) -> int:
        assert self.popen is not None
        return self.popen.pid

    @property
    def running(self) -> bool:
        return self.popen is not None and self.popen.poll() is None

    def children(self) -> list[int]:
        """The pids whose parent is this process (a Celery worker's pool processes)."""
        found = []
        for stat in glob.glob("/proc/[0-9]*/stat"):
            with contextlib.suppress(OSError, ValueError, IndexError):
                fields = Path(stat).read_text().rsplit(")", 1)[1].split()
                if int(fields[1]) == self.pid:
                    found.append(int(Path(stat).parent.name))
        return sorted(found)

    def kill(self) -> None:
        """SIGKILL to the whole group: nothing acked, closed or flushed."""
        if self.popen is None:
            return
        with contextlib.suppress(ProcessLookupError):
            os.killpg(self.popen.pid, signal.SIGKILL)
        self.popen.wait(timeout=10)

    def stop(self) -> None:
        if self.popen is not None and self.running:
            os.killpg(self.popen.pid, signal.SIGTERM)
            with contextlib.suppress(subprocess.TimeoutExpired):
                self.popen.wait(timeout=10)
        self.kill()

    def log_tail(self, lines: int = 30) -> str:
        text = self.log.read_text(errors="replace") if self.log.exists() else ""
        return "\n".join(text.splitlines()[-lines:])


class Redis:
    """A private redis-server without persistence: a restart starts it empty."""

    def __init__(self, workdir: Path) -> None:
        binary = shutil.which("redis-server")
        if binary is None:
            raise Missing("redis-server is not installed (apt-get install redis-server)")
        self.port = free_port()
        self.url = f"redis://127.0.0.1:{self.port}/0"
        argv = [binary, "--port", str(self.port), "--bind", "127.0.0.1", "--save", ""]
        argv += ["--appendonly", "no", "--daemonize", "no"]
        self.process = Process("redis", argv, dict(os.environ), workdir, workdir / "redis.log")

    def start(self) -> None:
        self.process.start()
        wait_until(self.ping, f"redis-server on port {self.port}", 10, step=0.02)

    def stop(self) -> None:
        self.process.kill()

    def ping(self) -> bool:
        try:
            with socket.create_connection(("127.0.0.1", self.port), timeout=1) as conn:
                conn.sendall(b"PING\r\n")
                return conn.recv(16).startswith(b"+PONG")
        except OSError:
            return False


class Postgres:
    """A PostgreSQL cluster of its own (initdb in a temporary directory, trust auth on
    loopback, no fsync: nothing here needs to outlive the machine)."""

    def __init__(self) -> None:
        found = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"))
        initdb = found[-1] if found else shutil.which("initdb")
        if initdb is None:
            raise Missing("PostgreSQL's initdb is not installed (apt-get install postgresql)")
        self.bin = Path(initdb).parent
        self.port = free_port()
        # Under /tmp, not a test's private directory: the cluster's account must reach it.
        self.dir = Path(tempfile.mkdtemp(prefix="kingdom-pg-"))
        self.data = self.dir / "data"
        self.url = f"postgres://postgres@127.0.0.1:{self.port}/{DATABASE}"

    def _run(self, *argv: str, timeout: float = 60) -> None:
        command = [str(self.bin / argv[0]), *argv[1:]]
        if os.geteuid() == 0:
            command = ["runuser", "-u", POSTGRES_ACCOUNT, "--", *command]
        done = subprocess.run(command, capture_output=True, text=True, timeout=timeout)
        if done.returncode != 0:
            raise RuntimeError(f"{argv[0]} failed:\n{done.stdout}\n{done.stderr}")

    def create(self) -> None:
        if os.geteuid() == 0:
            shutil.chown(self.dir, POSTGRES_ACCOUNT, POSTGRES_ACCOUNT)
        self._run("initdb", "-D", str(self.data), "-U", "postgres", "-A", "trust", "--no-sync")
        self.start()
        with psycopg.connect(self.admin_url, autocommit=True) as conn:
            conn.execute(f"CREATE DATABASE {DATABASE}")

    @property
    def admin_url(self) -> str:
        return f"postgres://postgres@127.0.0.1:{self.port}/postgres"

    def start(self) -> None:
        options = (
            f"-p {self.port} -c listen_addresses=127.0.0.1 -k {self.dir} -c fsync=off "
            "-c synchronous_commit=off -c full_page_writes=off -c max_connections=200"
        )
        log = str(self.dir / "postgres.log")
        self._run("pg_ctl", "-D", str(self.data), "-o", options, "-l", log, "-w", "start")

    def stop(self, mode: str = "fast") -> None:
        self._run("pg_ctl", "-D", str(self.data), "-m", mode, "-w", "stop")

    def connect(self) -> psycopg.Connection:
        return psycopg.connect(self.url, autocommit=True, connect_timeout=2)

    def remove(self) -> None:
        with contextlib.suppress(RuntimeError, subprocess.TimeoutExpired):
            self.stop("immediate")
        shutil.rmtree(self.dir, ignore_errors=True)


class Stack:
    """The Procfile's processes on the private PostgreSQL and Redis."""

    def __init__(self, workdir: Path, *, webs: int = 2, **env: str) -> None:
        self.workdir = workdir
        self.redis = Redis(workdir)
        self.postgres = Postgres()
        self.ports = [free_port() for _ in range(webs)]
        self.lines = procfile()
        self.extra_env = env
        self.secret_key = secrets.token_urlsafe(50)
        self.signing_key = base64.b64encode(secrets.token_bytes(32)).decode()
        self.processes: dict[str, Process] = {}
        self.boot_seconds = 0.0  # a restarted worker's, from its start to its pool's

    @property
    def urls(self) -> list[str]:
        return [f"http://127.0.0.1:{port}" for port in self.ports]

    def env(self, **extra: str) -> dict[str, str]:
        scripts = str(Path(sys.executable).parent)
        base = {k: v for k, v in os.environ.items() if not k.startswith(("PYTEST", "DJANGO"))}
        for name in ("DEBUG", "BOT_QUEUE", "CLOCK_QUEUE", "SQLITE_PATH", "SIGNING_KEY_FILE"):
            base.pop(name, None)
        return {
            **base,
            "PATH": scripts + os.pathsep + base.get("PATH", ""),
            "PYTHONPATH": str(ROOT),
            "PYTHONUNBUFFERED": "1",
            "DATABASE_URL": self.postgres.url,
            "REDIS_URL": self.redis.url,
            "DEBUG": "0",
            "SECRET_KEY": self.secret_key,
            "SIGNING_KEY": self.signing_key,
            "ALLOWED_HOSTS": "127.0.0.1",
            "CSRF_TRUSTED_ORIGINS": ",".join(self.urls),
            "LOG_LEVEL": "WARNING",
            "DB_POOL_SIZE": "4",
            "THROTTLE_SIGNUP": "off",
            "THROTTLE_LOGIN": "off",
            **self.extra_env,
            **extra,
        }

    def start(self) -> None:
        self.redis.start()
        self.postgres.create()
        self.release()
        for name in self.names():
            self.start_process(name)
        for i in range(len(self.ports)):
            self.wait_web(i)

    def names(self) -> list[str]:
        names = []
        for kind in self.lines:
            if kind == WEB:
                names += [f"{WEB}{i}" for i in range(len(self.ports))]
            elif kind != RELEASE:
                names.append(kind)
        return names

    def release(self) -> None:
        command = self.lines.get(RELEASE)
        if command:
            done = subprocess.run(
                ["sh", "-c", command], cwd=ROOT, env=self.env(), capture_output=True, text=True
            )
            if done.returncode != 0:
                raise RuntimeError(f"release failed:\n{done.stdout}\n{done.stderr}")

    def start_process(self, name: str) -> Process:
        kind = WEB if name.startswith(WEB) and name[len(WEB) :].isdigit() else name
        extra = {"PORT": str(self.ports[int(name[len(WEB) :])])} if kind == WEB else {}
        # exec: the process started is the Procfile's program itself (a kill -9 hits it).
        argv = ["sh", "-c", "exec " + self.lines[kind]]
        log = self.workdir / f"{name}.log"
        process = Process(name, argv, self.env(**extra), self.workdir, log).start()
        self.processes[name] = process
        return process

    def web_answers(self, i: int) -> bool:
        try:
            with socket.create_connection(("127.0.0.1", self.ports[i]), timeout=1) as conn:
                conn.sendall(b"GET /healthz HTTP/1.0\r\nHost: 127.0.0.1\r\n\r\n")
                return b" 200 " in conn.recv(64)
        except OSError:
            return False

    def wait_web(self, i: int) -> None:
        process = self.processes[f"{WEB}{i}"]

        def up() -> bool:
            if not process.running:
                raise RuntimeError(f"{process.name} died:\n{process.log_tail()}")
            return self.web_answers(i)

        wait_until(up, f"{process.name} to answer", START_SECONDS, step=0.1)

    def stop(self) -> None:
        for process in self.processes.values():
            process.stop()
        self.redis.stop()
        self.postgres.remove()

    def logs(self, lines: int = 20) -> str:
        return "\n".join(
            f"==== {p.name} ====\n{p.log_tail(lines)}" for p in self.processes.values()
        )


@contextlib.contextmanager
def started_stack(prefix: str, progress: Any = None, **options: Any) -> Iterator[Stack]:
    """A started ``Stack(workdir, **options)`` in a temporary directory, stopped at the end.
    When the body fails, the processes' logs go to ``progress`` and the directory stays
    for reading; otherwise it is removed."""
    workdir = Path(tempfile.mkdtemp(prefix=prefix))
    stack = Stack(workdir, **options)
    try:
        stack.start()
        yield stack
    except Exception:
        if progress is not None:
            progress.write(f"{stack.logs()}\nthe processes' logs: {workdir}\n")
        raise
    finally:
        stack.stop()
    shutil.rmtree(workdir, ignore_errors=True)
