"""Verify an exported game file without the database: any changed byte is found."""

from __future__ import annotations

import json

from django.core.management.base import BaseCommand, CommandError

from games.exports import verify_export


class Command(BaseCommand):
    help = "Verify game.json from export_game: hash chain, replay and re-execution."

    def add_arguments(self, parser) -> None:
        parser.add_argument("path")

    def handle(self, *args, **options) -> None:
        try:
            with open(options["path"], encoding="utf-8") as handle:
                document = json.load(handle)
        except (OSError, json.JSONDecodeError) as exc:
            raise CommandError(f"cannot read {options['path']}: {exc}") from exc
        verdict = verify_export(document)
        self.stdout.write(json.dumps(verdict.as_json(), indent=1))
        if not verdict.passed:
            raise CommandError("verification failed: " + "; ".join(verdict.problems))
