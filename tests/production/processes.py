"""The production processes, started from deploy/Procfile's own lines, and a private Redis.

Every process type in the Procfile runs (``release`` first, once, as the migrate step), so
a process type added there is exercised here without touching these tests.
"""

from __future__ import annotations

import os
import re
import shlex
import shutil
import socket
import sys
import time
from collections.abc import Callable
from pathlib import Path

from bench.stack import Process

ROOT = Path(__file__).resolve().parents[2]
PROCFILE = ROOT / "deploy" / "Procfile"
RELEASE = "release"
# Queue names in the Procfile's ``-Q`` lists and the environment variable that renames
# each for a test run (the settings route tasks by the same variables).
QUEUE_VARIABLES = {"bots": "BOT_QUEUE", "clocks": "CLOCK_QUEUE"}
_VARIABLE = re.compile(r"\$\{(\w+)(?::-([^}]*))?\}|\$(\w+)")
_SHELL_SYNTAX = re.compile(r"[;&|<>`()]")


def procfile(path: Path = PROCFILE) -> dict[str, str]:
    """Process type -> command line, in the file's order (comments and blanks skipped)."""
    lines = {}
    for raw in path.read_text().splitlines():
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        name, sep, command = line.partition(":")
        if sep and name.strip():
            lines[name.strip()] = command.strip()
    return lines


def expand(command: str, env: dict[str, str]) -> str:
    """``$VAR``, ``${VAR}`` and ``${VAR:-default}`` as a POSIX shell expands them."""

    def value(match: re.Match[str]) -> str:
        name = match.group(1) or match.group(3)
        default = match.group(2)
        found = env.get(name, "")
        return found if found or default is None else default

    return _VARIABLE.sub(value, command)


def rename_queues(argv: list[str], env: dict[str, str]) -> list[str]:
    """Each queue named in ``-Q``/``--queues`` renamed by its environment variable."""

    def renamed(names: str) -> str:
        return ",".join(env.get(QUEUE_VARIABLES.get(n, ""), n) for n in names.split(","))

    out: list[str] = []
    for i, arg in enumerate(argv):
        if i > 0 and argv[i - 1] in {"-Q", "--queues"}:
            out.append(renamed(arg))
        elif arg.startswith("--queues="):
            out.append("--queues=" + renamed(arg.partition("=")[2]))
        else:
            out.append(arg)
    return out


def argv_of(command: str, env: dict[str, str]) -> list[str]:
    """The argv to run: the command itself, or ``sh -c`` for one that needs a shell."""
    expanded = expand(command, env)
    if _SHELL_SYNTAX.search(expanded):
        return ["sh", "-c", expanded]
    return rename_queues(shlex.split(expanded), env)


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def wait_until(condition: Callable[[], object], what: str, seconds: float, *, step=0.1) -> None:
    """Poll ``condition`` until it is true; fail naming ``what`` after ``seconds``."""
    deadline = time.monotonic() + seconds
    while True:
        if condition():
            return
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out after {seconds:g} s waiting for {what}")
        time.sleep(step)


class RedisServer:
    """A private redis-server on a free port: the tests may stop and restart it."""

    def __init__(self, workdir: Path) -> None:
        binary = shutil.which("redis-server")
        if binary is None:
            raise AssertionError(
                "redis-server is not installed: the production tests start a private Redis "
                "(apt-get install redis-server)"
            )
        self.port = free_port()
        self.url = f"redis://127.0.0.1:{self.port}/0"
        argv = [binary, "--port", str(self.port), "--bind", "127.0.0.1"]
        argv += ["--save", "", "--appendonly", "no", "--daemonize", "no"]
        self.process = Process("redis", argv, dict(os.environ), workdir, workdir / "redis.log")

    def start(self) -> None:
        self.process.start()
        wait_until(self.ping, f"redis-server on port {self.port}", 10)

    def restart(self) -> None:
        """Stopped hard and started empty, as a crashed Redis without persistence."""
        self.process.kill()
        self.start()

    def ping(self) -> bool:
        try:
            with socket.create_connection(("127.0.0.1", self.port), timeout=1) as conn:
                conn.sendall(b"PING\r\n")
                return conn.recv(16).startswith(b"+PONG")
        except OSError:
            return False

    def client(self):
        import redis

        return redis.Redis.from_url(self.url)

    def stop(self) -> None:
        self.process.stop()


def python_env() -> dict[str, str]:
    """The test run's environment minus what must not leak into a server, with this
    Python's scripts (uvicorn, celery, python) first on PATH."""
    leave_out = ("PYTEST", "DEBUG", *QUEUE_VARIABLES.values())
    env = {k: v for k, v in os.environ.items() if not k.startswith(leave_out)}
    scripts = str(Path(sys.executable).parent)
    env["PATH"] = scripts + os.pathsep + env.get("PATH", "")
    env["PYTHONPATH"] = str(ROOT)
    env["PYTHONUNBUFFERED"] = "1"
    return env
