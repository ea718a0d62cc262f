"""Verify an exported game file without the database: any changed byte is found.

Every top-level field is compared with the hash-chained events, a game that is over must
reveal its seed (and is then re-executed), and a malformed file fails with a reason.
"""

from __future__ import annotations

import json
from typing import Any

from django.core.management.base import BaseCommand, CommandError

from games.exports import verify_export


class Command(BaseCommand):
    help = "Verify game.json from export_game: fields, hash chain, replay, re-execution."

    def add_arguments(self, parser) -> None:
        parser.add_argument("path")

    def handle(self, *args: Any, **options: Any) -> None:
        try:
            with open(options["path"], encoding="utf-8") as handle:
                document = json.load(handle)
        except (OSError, ValueError) as exc:  # ValueError: not JSON, or not UTF-8
            raise CommandError(f"cannot read {options['path']}: {exc}") from exc
        verdict = verify_export(document)
        self.stdout.write(json.dumps(verdict.as_json(), indent=1))
        if not verdict.passed:
            raise CommandError("verification failed: " + "; ".join(verdict.problems))
