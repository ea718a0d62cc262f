"""Record the timeouts of clocks that ran out and send again the bot turns owed whose
lease ran out (bots/scheduling.py ``sweep``): once, or every few seconds with --loop.

Celery beat runs the same in production and the embedded server has its own ticker
thread; this command serves any other deployment (cron, a systemd unit).
"""

from __future__ import annotations

import time

from django.conf import settings
from django.core.management.base import BaseCommand
from django.db import close_old_connections

from bots.scheduling import sweep


class Command(BaseCommand):
    help = (
        "Record a clock_expired event for every clock that has run out, and send again "
        "the bot turns owed whose lease ran out."
    )

    def add_arguments(self, parser) -> None:
        parser.add_argument(
            "--loop", action="store_true", help="sweep every CLOCK_SWEEP_EVERY seconds"
        )

    def handle(self, *args, **options) -> None:
        while True:
            close_old_connections()
            timeouts, sent = sweep()
            if timeouts or not options["loop"]:
                self.stdout.write(f"{timeouts} timeout event(s) recorded")
            if sent or not options["loop"]:
                self.stdout.write(f"{sent} owed bot turn(s) sent again")
            if not options["loop"]:
                return
            time.sleep(settings.CLOCK_SWEEP_EVERY)
