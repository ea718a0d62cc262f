"""Refit a game's leaf model from one level's games against itself (``bots.search.fit``)."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError

from bots.search.fit import FEATURES, FIT_PLAYOUTS, logistic, samples
from bots.strategies import LEVELS


class Command(BaseCommand):
    help = "Fit the search's leaf model of a game on one level's games against itself."

    def add_arguments(self, parser) -> None:
        parser.add_argument("game", choices=sorted(FEATURES))
        parser.add_argument("--games", type=int, default=120)
        parser.add_argument("--seed", type=int, default=0)
        parser.add_argument(
            "--level", choices=LEVELS, default="medium", help="the level that plays every seat"
        )
        parser.add_argument(
            "--playouts",
            type=int,
            default=FIT_PLAYOUTS,
            help="a searching level's budget per decision (playouts, so the games replay)",
        )
        parser.add_argument("--jobs", type=int, default=1, help="parallel processes")

    def handle(self, *args: Any, **options: Any) -> None:
        if options["games"] < 1 or options["playouts"] < 1 or options["jobs"] < 1:
            raise CommandError("--games, --playouts and --jobs must be at least 1")
        level = options["level"]
        xs, ys = samples(
            options["game"],
            options["games"],
            options["seed"],
            level=level,
            playouts=options["playouts"],
            jobs=options["jobs"],
        )
        weights = logistic(xs, ys)
        self.stdout.write(f"{len(xs)} positions of {options['games']} {level} games")
        self.stdout.write(f"WEIGHTS = {tuple(weights)}")
