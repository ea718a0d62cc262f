"""Print a game's export (JSON) to stdout: `manage.py export_game ID > game.json`."""

from __future__ import annotations

import json
from typing import Any

from django.core.exceptions import ValidationError
from django.core.management.base import BaseCommand, CommandError

from games.exports import export_game
from games.models import Game


class Command(BaseCommand):
    help = "Export a game's ruleset version, commands, events, hashes and (once over) seed."

    def add_arguments(self, parser) -> None:
        parser.add_argument("game_id")

    def handle(self, *args: Any, **options: Any) -> None:
        try:
            game = Game.objects.get(pk=options["game_id"])
        except (Game.DoesNotExist, ValidationError, ValueError) as exc:  # not a game id
            raise CommandError(f"no game {options['game_id']}") from exc
        if game.head_seq == 0:
            # Nothing an auditor could verify: the log starts at table_started.
            raise CommandError(f"game {game.id} has not started: it has no events to export")
        self.stdout.write(json.dumps(export_game(game), indent=1, ensure_ascii=False))
