#!/usr/bin/env python3
"""Install everything into .venv, then serve or test. Needs only Python 3.11+.

python3 run.py serve   # http://127.0.0.1:8000 (SQLite, in-memory channels, in-process bots)
python3 run.py test    # the whole test suite (PostgreSQL + Redis too when CI=true)
python3 run.py lint    # ruff, lint-imports and mypy (CI runs it before the tests)
python3 run.py manage  # any manage.py command in .venv: python3 run.py manage audit_game <id>
"""

from __future__ import annotations

import contextlib
import hashlib
import ipaddress
import os
import shutil
import socket
import subprocess
import sys
import time
import venv
from pathlib import Path

ROOT = Path(__file__).resolve().parent
VENV = ROOT / ".venv"
PY = VENV / ("Scripts/python.exe" if os.name == "nt" else "bin/python")
STAMP = VENV / ".installed"
POSTGRES_URL = "postgres://postgres@127.0.0.1:5432/postgres"
REDIS_URL = "redis://127.0.0.1:6379/0"


def sh(*args: str | Path, env: dict[str, str] | None = None, check: bool = True) -> int:
    print("+", " ".join(str(a) for a in args), flush=True)
    return subprocess.run([str(a) for a in args], cwd=ROOT, env=env, check=check).returncode


def install() -> None:
    if sys.version_info < (3, 11):  # noqa: UP036 - run.py is what tells old Pythons so
        sys.exit("Python 3.11 or newer is needed.")
    if not PY.exists():
        venv.EnvBuilder(with_pip=True).create(VENV)
    wanted = hashlib.sha256((ROOT / "pyproject.toml").read_bytes()).hexdigest()
    if STAMP.exists() and STAMP.read_text() == wanted:
        return
    sh(PY, "-m", "pip", "install", "--quiet", "--upgrade", "pip")
    # dev: tests and linters; bench: `manage.py bench` (tests run it too).
    sh(PY, "-m", "pip", "install", "--quiet", "-e", ".[dev,bench]")
    STAMP.write_text(wanted)


def reachable(host: str, port: int) -> bool:
    try:
        with socket.create_connection((host, port), timeout=1):
            return True
    except OSError:
        return False


def ensure_service(name: str, port: int, start: list[str]) -> None:
    """Start a CI service when it is down; fail (never skip) when it stays unreachable."""
    if reachable("127.0.0.1", port):
        return
    print(f"{name} is down on port {port}; starting it", flush=True)
    subprocess.run(start, check=False)
    for _ in range(30):
        if reachable("127.0.0.1", port):
            return
        time.sleep(1)
    sys.exit(f"{name} is not reachable on 127.0.0.1:{port}; the suite needs it in CI.")


def ci_services(env: dict[str, str]) -> None:
    versions = sorted(os.listdir("/etc/postgresql")) if Path("/etc/postgresql").is_dir() else []
    pg_start = [
        "pg_ctlcluster",
        "--skip-systemctl-redirect",
        versions[-1] if versions else "15",
        "main",
        "start",
    ]
    ensure_service("PostgreSQL", 5432, pg_start)
    ensure_service(
        "Redis",
        6379,
        [
            "redis-server",
            "--daemonize",
            "yes",
            "--bind",
            "127.0.0.1",
            "-::1",
            "--port",
            "6379",
            "--save",
            "",
            "--appendonly",
            "no",
        ],
    )
    env.setdefault("DATABASE_URL", POSTGRES_URL)
    env.setdefault("REDIS_URL", REDIS_URL)


def ensure_chromium() -> None:
    """Browser tests drive Debian's chromium; install it when missing (no downloads)."""
    if shutil.which("chromium") or Path("/usr/bin/chromium").exists():
        return
    if shutil.which("apt-get") and os.geteuid() == 0:
        log = VENV / "apt-chromium.log"
        print(f"Installing Debian's chromium for the browser tests (apt output: {log})", flush=True)
        apt_env = {**os.environ, "DEBIAN_FRONTEND": "noninteractive"}
        with log.open("w") as out:
            for step in (
                ["apt-get", "update", "-qq"],
                ["apt-get", "install", "-y", "-qq", "chromium"],
            ):
                subprocess.run(step, check=False, env=apt_env, stdout=out, stderr=subprocess.STDOUT)


def bound_host(address: str) -> str:
    """The host of runserver's address: "8000", "0.0.0.0:8000", "[::1]:8000"."""
    if address.isdigit() or ":" not in address:
        return "127.0.0.1" if address.isdigit() else address
    return address.rsplit(":", 1)[0].strip("[]")


def is_loopback(host: str) -> bool:
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def own_addresses() -> set[str]:
    """This machine's names and addresses, as people on the network reach it."""
    names = {socket.gethostname(), socket.getfqdn()}
    with contextlib.suppress(OSError):
        names |= {info[4][0] for info in socket.getaddrinfo(socket.gethostname(), None)}
    # The address of the route out (a UDP "connect" sends nothing).
    with contextlib.suppress(OSError), socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        probe.connect(("192.0.2.1", 9))
        names.add(probe.getsockname()[0])
    return {n for n in names if n}


def serve_environment(address: str, env: dict[str, str]) -> dict[str, str]:
    """The server's environment: bound beyond loopback, DEBUG is off (Django's debug
    pages would show settings and code to the network) unless chosen on purpose, and the
    bound address, or this machine's addresses for 0.0.0.0, are allowed hosts."""
    env = dict(env)
    host = bound_host(address)
    if is_loopback(host):
        return env
    env.setdefault("DEBUG", "0")
    if env["DEBUG"] == "0":
        # DEBUG off refuses the development key: a random one of this checkout's own.
        env.setdefault("SECRET_KEY_FILE", str(ROOT / ".secret_key"))
        # Plain http on the network: a secure-only cookie would never come back.
        env.setdefault("SESSION_COOKIE_SECURE", "0")
        env.setdefault("CSRF_COOKIE_SECURE", "0")
        env.setdefault("LOG_FORMAT", "console")
    if "ALLOWED_HOSTS" not in env:
        hosts = {"127.0.0.1", "localhost", "[::1]"}
        if host in {"0.0.0.0", "::"}:
            hosts |= {f"[{h}]" if ":" in h else h for h in own_addresses()}
        else:
            hosts.add(f"[{host}]" if ":" in host else host)
        env["ALLOWED_HOSTS"] = ",".join(sorted(hosts))
    return env


def serve() -> None:
    install()
    sh(PY, "manage.py", "migrate", "--noinput")
    extra = sys.argv[2:]
    # An address or port given first replaces the default one (runserver takes one only).
    address = extra.pop(0) if extra and not extra[0].startswith("-") else "127.0.0.1:8000"
    env = serve_environment(address, dict(os.environ))
    if env.get("DEBUG") == "0" and "DEBUG" not in os.environ:
        print(f"Serving {address} beyond loopback: DEBUG off, hosts {env['ALLOWED_HOSTS']}")
    os.execve(str(PY), [str(PY), "manage.py", "runserver", address, *extra], env)


def lint() -> None:
    install()
    sh(PY, "-m", "ruff", "check", ".")
    sh(PY, "-m", "ruff", "format", "--check", ".")
    # The import contracts in pyproject.toml ([tool.importlinter]): apps depend one way.
    sh(PY.parent / ("lint-imports.exe" if os.name == "nt" else "lint-imports"))
    # The type checker, on the files pyproject.toml's [tool.mypy] names.
    sh(PY, "-m", "mypy")


def test() -> None:
    install()
    env = dict(os.environ)
    if env.get("CI", "").lower() == "true":
        ci_services(env)
    ensure_chromium()
    args = sys.argv[2:]
    if not any(a == "-n" or a.startswith(("-n", "--numprocesses")) for a in args):
        # A pytest-xdist worker per core, a test file's tests on one worker (its module's
        # browser and fixtures start once); each worker has its own databases
        # (infra/pytest_env.py). "-n 0" runs in this process.
        args = ["-n", "auto", "--dist", "loadfile", *args]
    code = sh(PY, "-m", "pytest", *args, env=env, check=False)
    sys.exit(code)


def manage() -> None:
    with contextlib.redirect_stdout(sys.stderr):  # a command's own output stays clean
        install()
    os.execv(str(PY), [str(PY), str(ROOT / "manage.py"), *sys.argv[2:]])


if __name__ == "__main__":
    commands = {"serve": serve, "test": test, "lint": lint, "manage": manage}
    if len(sys.argv) < 2 or sys.argv[1] not in commands:
        sys.exit(__doc__)
    commands[sys.argv[1]]()
