"""Print a game's export (JSON) to stdout: `manage.py export_game ID > game.json`."""

from __future__ import annotations

import json

from django.core.management.base import BaseCommand, CommandError

from games.exports import export_game
from games.models import Game


class Command(BaseCommand):
    help = "Export a game's ruleset version, commands, events, hashes and (once over) seed."

    def add_arguments(self, parser) -> None:
        parser.add_argument("game_id")

    def handle(self, *args, **options) -> None:
        try:
            game = Game.objects.get(pk=options["game_id"])
        except (Game.DoesNotExist, ValueError) as exc:
            raise CommandError(f"no game {options['game_id']}") from exc
        self.stdout.write(json.dumps(export_game(game), indent=1, ensure_ascii=False))
