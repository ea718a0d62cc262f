from __future__ import annotations

import os
import sys
from pathlib import Path

from django.apps import AppConfig
from django.conf import settings

# The programs that serve the ASGI application (daphne is what runserver runs here).
SERVERS = {"daphne", "uvicorn", "gunicorn", "hypercorn"}


class BotsConfig(AppConfig):
    name = "bots"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        # Connects the receiver of the bot turns games announces (games.signals).
        from bots import scheduling

        if settings.BOT_RUNNER == "thread" and serving(sys.argv, os.environ):
            scheduling.ticker_start()


def serving(argv: list[str], environ: os._Environ[str] | dict[str, str]) -> bool:
    """Whether this process is the one that serves requests: the embedded ticker
    (bots/scheduling.py) starts there once, and never in migrate, shell, a test run or
    runserver's reloader parent (which only watches files and starts the serving child,
    RUN_MAIN=true)."""
    path = Path(argv[0]) if argv else Path()
    program = path.parent.name if path.name == "__main__.py" else path.name  # python -m
    if program in SERVERS:
        return True
    if argv[1:2] == ["runserver"]:
        return "--noreload" in argv or environ.get("RUN_MAIN") == "true"
    return False
