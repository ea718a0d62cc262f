"""Record the timeouts of clocks that ran out and nudge stalled bot turns: once, or every
few seconds with --loop.

Celery beat runs the same sweep (bots.dispatch.sweep) in production and the embedded
server has its own sweeper thread; this command serves any other deployment (cron, a
systemd unit).
"""

from __future__ import annotations

import time

from django.conf import settings
from django.core.management.base import BaseCommand
from django.db import close_old_connections

from bots.dispatch import sweep


class Command(BaseCommand):
    help = (
        "Record a clock_expired event for every clock that has run out, and schedule "
        "again the bot turns of games stalled for longer than BOT_STALL_SECONDS."
    )

    def add_arguments(self, parser) -> None:
        parser.add_argument(
            "--loop", action="store_true", help="sweep every CLOCK_SWEEP_EVERY seconds"
        )

    def handle(self, *args, **options) -> None:
        while True:
            close_old_connections()
            timeouts, nudged = sweep()
            if timeouts or not options["loop"]:
                self.stdout.write(f"{timeouts} timeout event(s) recorded")
            if nudged or not options["loop"]:
                self.stdout.write(f"{nudged} stalled bot turn(s) scheduled again")
            if not options["loop"]:
                return
            time.sleep(settings.CLOCK_SWEEP_EVERY)
