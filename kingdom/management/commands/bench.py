"""Benchmarks. Each measurement prints one JSON line (name, n, rate, p50/p99).

python manage.py bench commands [--games 10] [--players 2] [--max-commands N]
    [--peer eventsourcing]
python manage.py bench rules kingdom-builder [--games 50] [--players 4] [--positions 20]
python manage.py bench live [--processes 2 | --url http://127.0.0.1:8000 ...]
    [--tables 16] [--ruleset kingdoms] [--moves 300] [--seconds 30] [--peer bgio]
python manage.py bench faults [--games 8] [--fault redis_stopped ...] [--down 5]
    [--long-down 30]
python manage.py bench streams [--streams 1000] [--hold SECONDS]
python manage.py bench bots [kingdoms] [--games 2] [--levels expert,hard] [--think 0.5]

The work is in bench/: ``inprocess`` (commands, rules), ``live`` (the load a
community puts on running servers, see bench/live.py) and ``faults`` (the service
on a PostgreSQL and a Redis of its own, which it stops and kills under play) and
``streams`` (a web process's memory per idle bot-API event stream) and ``bots`` (the
search bots' decision times in the Celery worker, on the same private stack as faults).
"""

from __future__ import annotations

import json

from django.core.management.base import BaseCommand, CommandError

from bench import bots, faults, live, streams
from bench.inprocess import InProcessBench
from games.rules import all_rulesets
from games.services.writing import BOT_LEVELS


class Command(BaseCommand):
    help = "Measure the service and the rules engines; prints JSON lines."

    def add_arguments(self, parser) -> None:
        parser.add_argument(
            "what", choices=["commands", "rules", "live", "faults", "streams", "bots"]
        )
        parser.add_argument("ruleset", nargs="?", default="kingdoms")
        parser.add_argument("--games", type=int, default=None)
        parser.add_argument("--players", type=int, default=None)
        parser.add_argument("--seed", type=int, default=1)
        parser.add_argument(
            "--positions",
            type=int,
            default=20,
            help="bench rules: positions the hard search is timed on (0: none)",
        )
        parser.add_argument(
            "--max-commands",
            type=int,
            default=None,
            help="stop each game played through the service after this many commands "
            "(smoke runs; the cost-by-seq windows then overlap)",
        )
        live.add_arguments(parser)
        streams.add_arguments(parser)
        group = parser.add_argument_group("bench faults")
        group.add_argument(
            "--fault",
            action="append",
            choices=[*faults.FAULTS, faults.LONG_FAULT],
            help="the faults to cause, in this order (default: all)",
        )
        group.add_argument("--down", type=float, default=5.0, help="seconds a dependency is down")
        group.add_argument(
            "--long-down", type=float, default=30.0, help=f"seconds of {faults.LONG_FAULT}"
        )
        group = parser.add_argument_group("bench bots")
        group.add_argument(
            "--levels", default="expert,hard", help="the bots seated at each table, in order"
        )
        group.add_argument("--think", type=float, default=0.5, help="their seconds per move")

    def handle(self, *args, **options) -> None:
        if options.get("live_ruleset"):
            options["ruleset"] = options["live_ruleset"]
        keys = {r.key for r in all_rulesets()}
        if options["ruleset"] not in keys:
            raise CommandError(f"unknown ruleset {options['ruleset']!r}; one of {sorted(keys)}")
        peer = {"live": "bgio", "commands": "eventsourcing"}.get(options["what"])
        if options["peer"] not in ("none", peer):
            raise CommandError(
                f"--peer {options['peer']} does not run beside bench {options['what']}"
            )
        if options["what"] == "streams":  # its line is printed before --hold, by itself
            streams.run(options["streams"], options["hold"])
            return
        if options["what"] == "faults":
            lines = faults.run(
                tables=options["games"] or 8,
                faults=tuple(options["fault"] or (*faults.FAULTS, faults.LONG_FAULT)),
                down=options["down"],
                long_down=options["long_down"],
                progress=self.stderr,
            )
        elif options["what"] == "bots":
            levels = tuple(options["levels"].split(","))
            if not set(levels) <= set(BOT_LEVELS) or not 0.1 <= options["think"] <= 10:
                raise CommandError(
                    f"--levels takes {', '.join(BOT_LEVELS)}; --think 0.1 to 10 seconds"
                )
            lines = bots.run(
                ruleset=options["ruleset"],
                levels=levels,
                tables=options["games"] or 2,
                think=options["think"],
                progress=self.stderr,
            )
        elif options["what"] == "commands":
            lines = InProcessBench().bench_commands(options)
        elif options["what"] == "rules":
            lines = InProcessBench().bench_rules(options)
        else:
            lines = live.run(options, progress=self.stderr)
        for line in lines:
            self.stdout.write(json.dumps(line))
