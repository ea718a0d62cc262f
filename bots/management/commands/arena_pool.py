"""Pool the parts of an arena match, each saved by ``arena --save`` at its own seed.

python manage.py arena_pool docs/arena/kingdoms-expert-v-hard-*.json
python manage.py arena_pool docs/arena/kingdoms-field-*.json --json
python manage.py arena_pool docs/arena/kingdoms-expert-v-medium-*.json --plot by-time.png

Prints the arena's report over all the parts' games (a field's for a field), then a line
listing the parts: each one's seed, games and the commit that played it; parts played at
several thinking times give one report per thinking time, and ``--plot`` draws the win
rate by thinking time. Refuses parts that are not the same match (game, levels, players,
options) or share a seed at the same thinking time.
"""

from __future__ import annotations

import json
from typing import Any

from django.core.management.base import BaseCommand, CommandError

from bots.management.commands.arena import (
    as_json,
    field_json,
    field_report,
    plot_by_budget,
    report,
)
from bots.search.arena import load_part, pool_by_budget, summarise, summarise_field


class Command(BaseCommand):
    help = "Pool arena parts (arena --save) of one match into one report per thinking time."

    def add_arguments(self, parser) -> None:
        parser.add_argument("parts", nargs="+", metavar="PART", help="a part's JSON file")
        parser.add_argument("--json", action="store_true", help="also print a JSON summary")
        parser.add_argument(
            "--plot",
            default=None,
            metavar="PNG",
            help="draw A's win rate by thinking time (parts at two or more budgets)",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        try:
            parts = [load_part(path) for path in options["parts"]]
            budgets = pool_by_budget(parts)
        except ValueError as exc:
            raise CommandError(str(exc)) from exc
        if options["plot"] and (budgets[0][0].lineup or len(budgets) < 2):
            raise CommandError("--plot needs A against B at two or more thinking times")
        summaries = []
        for match, results, played in budgets:
            if match.lineup:
                standings = summarise_field(match, results)
                self.stdout.write(field_report(standings, played))
                if options["json"]:
                    self.stdout.write(json.dumps(field_json(standings), sort_keys=True))
                continue
            summary = summarise(match, results)
            summaries.append(summary)
            self.stdout.write(report(summary, played))
            if options["json"]:
                self.stdout.write(json.dumps(as_json(summary), sort_keys=True))
        if options["plot"]:
            plot_by_budget(summaries, options["plot"])
            self.stdout.write(f"chart written to {options['plot']}")
