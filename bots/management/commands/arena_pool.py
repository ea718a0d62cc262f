"""Pool the parts of an arena match, each saved by ``arena --save`` at its own seed.

python manage.py arena_pool docs/arena/kingdoms-expert-v-hard-*.json
python manage.py arena_pool docs/arena/kingdoms-field-*.json --json

Prints the arena's report over all the parts' games (a field's for a field), then a line
listing the parts: each one's seed, games and the commit that played it. Refuses parts
that are not the same match (game, levels, players, budget, options) or share a seed.
"""

from __future__ import annotations

import json
from typing import Any

from django.core.management.base import BaseCommand, CommandError

from bots.management.commands.arena import as_json, field_json, field_report, report
from bots.search.arena import load_part, pool, summarise, summarise_field


class Command(BaseCommand):
    help = "Pool arena parts (arena --save) of one match into one report."

    def add_arguments(self, parser) -> None:
        parser.add_argument("parts", nargs="+", metavar="PART", help="a part's JSON file")
        parser.add_argument("--json", action="store_true", help="also print a JSON summary")

    def handle(self, *args: Any, **options: Any) -> None:
        try:
            parts = [load_part(path) for path in options["parts"]]
            match, results = pool(parts)
        except ValueError as exc:
            raise CommandError(str(exc)) from exc
        if match.lineup:
            standings = summarise_field(match, results)
            self.stdout.write(field_report(standings, parts))
            if options["json"]:
                self.stdout.write(json.dumps(field_json(standings), sort_keys=True))
            return
        summary = summarise(match, results)
        self.stdout.write(report(summary, parts))
        if options["json"]:
            self.stdout.write(json.dumps(as_json(summary), sort_keys=True))
