"""The Procfile's web line, run: uvicorn's own lines are JSON (Django's LOGGING takes its
loggers over) and a WebSocket ticket in a socket's URL reaches no log line."""

from __future__ import annotations

import json
import os
import shlex
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

from tests.deploy.conftest import DEPLOY, ROOT

SECRET = "tk-SECRET-0123456789"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def web_command(port: int) -> list[str]:
    procfile = dict(
        line.split(": ", 1) for line in (DEPLOY / "Procfile").read_text().splitlines() if line
    )
    words = shlex.split(procfile["web"].replace("${PORT:-8000}", str(port)))
    words[words.index("--host") + 1] = "127.0.0.1"
    return [sys.executable, "-m", *words]


def open_socket(port: int, path: str) -> bytes:
    """A WebSocket handshake; the answer's status line."""
    with socket.create_connection(("127.0.0.1", port), timeout=10) as conn:
        conn.sendall(
            (
                f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nUpgrade: websocket\r\n"
                "Connection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n"
                "Sec-WebSocket-Version: 13\r\n\r\n"
            ).encode()
        )
        return conn.recv(4096).split(b"\r\n", 1)[0]


def test_the_web_process_logs_json_lines_without_tickets(tmp_path: Path):
    port = free_port()
    env = {
        **{k: v for k, v in os.environ.items() if k not in {"DATABASE_URL", "REDIS_URL"}},
        "DEBUG": "1",  # the embedded settings: no PostgreSQL or Redis needed
        "LOG_FORMAT": "json",
        "APP_LOG_LEVEL": "INFO",
        "SQLITE_PATH": str(tmp_path / "db.sqlite3"),
        "PYTHONPATH": str(ROOT),
    }
    log = tmp_path / "web.log"
    with log.open("w") as stderr:
        process = subprocess.Popen(web_command(port), cwd=ROOT, env=env, stderr=stderr)
    try:
        deadline = time.monotonic() + 60
        while True:
            assert process.poll() is None, log.read_text()
            try:
                urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=2)
                break
            except OSError:
                assert time.monotonic() < deadline, log.read_text()
                time.sleep(0.2)
        # Accepted or refused, uvicorn logs the socket's path with its query string.
        assert open_socket(port, f"/ws/lobby/?ticket={SECRET}").split()[1] in {b"101", b"403"}
        deadline = time.monotonic() + 10
        while "WebSocket" not in log.read_text():  # the socket's log line
            assert time.monotonic() < deadline, log.read_text()
            time.sleep(0.05)
    finally:
        process.terminate()
        process.wait(timeout=30)
    text = log.read_text()
    lines = [json.loads(line) for line in text.splitlines()]  # every line is JSON
    uvicorn = [line for line in lines if line["logger"].startswith("uvicorn")]
    assert any("Started server process" in line["event"] for line in uvicorn)
    (opened,) = [line for line in uvicorn if "WebSocket" in line["event"]]
    assert "ticket=[redacted]" in opened["event"]
    assert SECRET not in text
