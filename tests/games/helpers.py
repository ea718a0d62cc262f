"""Small helpers to set up tables through the services (the one write path)."""

from __future__ import annotations

from games import services
from games.models import Game


def table_with_bots(
    user,
    ruleset: str = "kingdoms",
    bots: int = 1,
    level: str = "easy",
    options: dict | None = None,
    join: bool = True,
) -> Game:
    game = services.table_create(
        user=user,
        ruleset=ruleset,
        seats=bots + (1 if join else 0),
        options=options or {},
        join=join,
    )
    for _ in range(bots):
        services.bot_add(game_id=game.id, user=user, level=level)
    return game
