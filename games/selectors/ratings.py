"""Where the read side gets the seated players' ratings: a source the players app sets
in its ``AppConfig.ready()`` (players/apps.py), so games imports no other app. With no
source set (games alone), tables show no ratings and no rating changes."""

from __future__ import annotations

from collections.abc import Collection
from typing import Any, Protocol

from games.models import Game


class RatingSource(Protocol):
    def ratings(
        self, rulesets: Collection[str], user_ids: Collection[int]
    ) -> dict[tuple[str, int], int]:
        """(ruleset, user id) → the rounded rating of each of ``user_ids`` who has played
        a rated game of one of ``rulesets``, in one query."""
        ...

    def rating_changes(self, game: Game) -> list[dict[str, Any]]:
        """The rating changes ``game``'s result made, in finishing order, as the API
        shows them (one query)."""
        ...


_source: RatingSource | None = None


def set_rating_source(source: RatingSource | None) -> None:
    global _source
    _source = source


def ratings(rulesets: Collection[str], user_ids: Collection[int]) -> dict[tuple[str, int], int]:
    return _source.ratings(rulesets, user_ids) if _source is not None else {}


def rating_changes(game: Game) -> list[dict[str, Any]]:
    return _source.rating_changes(game) if _source is not None else []
