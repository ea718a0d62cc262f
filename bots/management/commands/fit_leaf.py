"""Refit a game's leaf model from medium-against-medium games (``bots.search.fit``)."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand

from bots.search.fit import FEATURES, logistic, samples


class Command(BaseCommand):
    help = "Fit the search's leaf model of a game on medium-against-medium games."

    def add_arguments(self, parser) -> None:
        parser.add_argument("game", choices=sorted(FEATURES))
        parser.add_argument("--games", type=int, default=120)
        parser.add_argument("--seed", type=int, default=0)

    def handle(self, *args: Any, **options: Any) -> None:
        xs, ys = samples(options["game"], options["games"], options["seed"])
        weights = logistic(xs, ys)
        self.stdout.write(f"{len(xs)} positions of {options['games']} games")
        self.stdout.write(f"WEIGHTS = {tuple(weights)}")
