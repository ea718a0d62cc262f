"""The production shape on one machine: two web processes, the Celery processes and
beat, all from deploy/Procfile, on the test database and a private Redis."""

from __future__ import annotations

import secrets
import subprocess
import uuid
from pathlib import Path

from django.db import connection

from bench.stack import Process
from tests.production.clients import Http
from tests.production.processes import (
    QUEUE_VARIABLES,
    RELEASE,
    ROOT,
    RedisServer,
    argv_of,
    free_port,
    procfile,
    python_env,
    wait_until,
)

WEB = "web"
WEB_PROCESSES = 2
START_SECONDS = 45


def database_url() -> str:
    """The test database this test run writes to (pytest-django's, not the configured
    one): every process must see the rows the tests commit."""
    db = connection.settings_dict
    assert connection.vendor == "postgresql", "the production tests need PostgreSQL"
    user = db["USER"] + (f":{db['PASSWORD']}" if db.get("PASSWORD") else "")
    host, port = db["HOST"] or "127.0.0.1", db["PORT"] or "5432"
    return f"postgres://{user}@{host}:{port}/{db['NAME']}"


class Cluster:
    def __init__(self, workdir: Path) -> None:
        self.workdir = workdir
        self.redis = RedisServer(workdir)
        self.secret_key = secrets.token_urlsafe(50)
        run = uuid.uuid4().hex[:10]
        # A queue is renamed only where the settings read its variable: a Procfile queue
        # the settings name outright must keep its name to receive its tasks.
        settings_source = (ROOT / "kingdom" / "settings.py").read_text()
        self.queues = {
            var: f"{name}-prodtest-{run}"
            for name, var in QUEUE_VARIABLES.items()
            if var in settings_source
        }
        self.ports = [free_port() for _ in range(WEB_PROCESSES)]
        self.lines = procfile()
        assert WEB in self.lines, "deploy/Procfile has no web process"
        self.processes: dict[str, Process] = {}

    # ---- the environment every process shares -------------------------------------------
    def env(self, **extra: str) -> dict[str, str]:
        origins = ",".join(self.urls)
        return {
            **python_env(),
            "DATABASE_URL": database_url(),
            "REDIS_URL": self.redis.url,
            "DEBUG": "0",
            "SECRET_KEY": self.secret_key,
            "ALLOWED_HOSTS": "127.0.0.1",
            "CSRF_TRUSTED_ORIGINS": origins,
            "BOT_MOVE_DELAY": "0",
            "BOT_THINK_SECONDS": "0.2",
            "CLOCK_SWEEP_EVERY": "1",
            "LOG_LEVEL": "WARNING",
            **self.queues,
            **extra,
        }

    @property
    def urls(self) -> list[str]:
        return [f"http://127.0.0.1:{port}" for port in self.ports]

    # ---- starting and stopping ----------------------------------------------------------
    def release(self) -> None:
        """The Procfile's release step (the migrations), run to completion first."""
        command = self.lines.get(RELEASE)
        if command is None:
            return
        done = subprocess.run(
            argv_of(command, self.env()),
            cwd=ROOT,
            env=self.env(),
            capture_output=True,
            text=True,
            timeout=120,
        )
        assert done.returncode == 0, f"release step failed:\n{done.stdout}\n{done.stderr}"

    def start(self) -> None:
        self.redis.start()
        self.release()
        for kind in self.lines:
            if kind == RELEASE:
                continue
            if kind == WEB:
                for i in range(WEB_PROCESSES):
                    self.start_process(f"{WEB}{i}")
            else:
                self.start_process(kind)
        for i in range(WEB_PROCESSES):
            self.wait_web(i)

    def start_process(self, name: str) -> Process:
        """(Re)start ``name``: a Procfile process type, or ``web0``/``web1``."""
        kind = WEB if name.startswith(WEB) and name[len(WEB) :].isdigit() else name
        extra = {"PORT": str(self.ports[int(name[len(WEB) :])])} if kind == WEB else {}
        env = self.env(**extra)
        # Beat writes its schedule file into the working directory: not the work tree.
        process = Process(
            name,
            argv_of(self.lines[kind], env),
            env,
            self.workdir,
            self.workdir / f"{name}.log",
        )
        self.processes[name] = process.start()
        return process

    def wait_web(self, i: int) -> None:
        process = self.processes[f"{WEB}{i}"]

        def answers() -> bool:
            assert process.running, f"{process.name} died:\n{process.log_tail()}"
            try:
                return Http(self.urls[i]).request("GET", "/api/rulesets/")[0] == 200
            except OSError:
                return False

        wait_until(answers, f"{process.name} to answer HTTP", START_SECONDS, step=0.2)

    def heal(self) -> None:
        """After a test: everything up again for the next one."""
        if not self.redis.ping():
            self.redis.start()
        for name, process in list(self.processes.items()):
            if not process.running:
                self.start_process(name)
        for i in range(WEB_PROCESSES):
            self.wait_web(i)

    def assert_running(self) -> None:
        for process in self.processes.values():
            assert process.running, f"{process.name} died:\n{process.log_tail()}"

    def stop(self) -> None:
        for process in self.processes.values():
            process.stop()
        self.redis.stop()

    def logs(self) -> str:
        return "\n".join(f"==== {p.name} ====\n{p.log_tail(30)}" for p in self.processes.values())
