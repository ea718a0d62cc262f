"""Print a game's export (JSON) to stdout: `manage.py export_game ID > game.json`."""

from __future__ import annotations

import json
from typing import Any

from django.core.management.base import BaseCommand

from audit.exports import export_game, started_game


class Command(BaseCommand):
    help = "Export a game's ruleset version, commands, events, hashes and (once over) seed."

    def add_arguments(self, parser) -> None:
        parser.add_argument("game_id")

    def handle(self, *args: Any, **options: Any) -> None:
        game = started_game(options["game_id"], "export")
        self.stdout.write(json.dumps(export_game(game), indent=1, ensure_ascii=False))
