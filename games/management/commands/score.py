"""Score a position file with a ruleset's own scoring module.

python manage.py score kingdoms POSITION.json
python manage.py score kingdom-builder POSITION.json
"""

from __future__ import annotations

import json

from django.core.management.base import BaseCommand, CommandError

from games.rules import all_rulesets, get_ruleset
from games.rules.base import IllegalCommand


class Command(BaseCommand):
    help = "Print each player's score for a position (JSON); formats are in docs/api.md."

    def add_arguments(self, parser) -> None:
        parser.add_argument("ruleset")
        parser.add_argument("position")

    def handle(self, *args, **options) -> None:
        keys = {r.key for r in all_rulesets()}
        if options["ruleset"] not in keys:
            raise CommandError(f"unknown ruleset {options['ruleset']!r}; one of {sorted(keys)}")
        rules = get_ruleset(options["ruleset"])
        if not hasattr(rules, "score_position"):
            raise CommandError(f"{rules.name} has no position scoring")
        try:
            with open(options["position"], encoding="utf-8") as handle:
                position = json.load(handle)
        except (OSError, json.JSONDecodeError) as exc:
            raise CommandError(f"cannot read {options['position']}: {exc}") from exc
        try:
            result = rules.score_position(position)
        except IllegalCommand as exc:
            raise CommandError(exc.message) from exc
        except (KeyError, IndexError, TypeError, ValueError, AttributeError) as exc:
            raise CommandError(f"malformed position file: {exc!r}") from exc
        self.stdout.write(json.dumps(result, sort_keys=True))
