"""People and Celery-played bots at one table, across both web processes, to the end."""

from __future__ import annotations

import random

import pytest

from games.models import Game
from tests.production.helpers import (
    PRODUCTION,
    assert_audit_passes,
    assert_log_is_sound,
    open_table,
    play_randomly,
    seat_of,
)

pytestmark = PRODUCTION


@pytest.mark.parametrize(
    ("ruleset", "bots"),
    [("kingdoms", ["hard"]), ("kingdom-cards", ["medium", "medium"])],
    ids=["kingdoms-hard-bot", "kingdom-cards-medium-bots"],
)
def test_a_person_and_bots_play_to_the_end_across_both_processes(cluster, player, ruleset, bots):
    a, b = cluster.urls
    ana = player("ana")
    # A hard bot thinks 0.1 s a move (the least a table may set) to keep the game short.
    game_id = open_table(ana.http(a), ruleset=ruleset, seats=1 + len(bots), bot_think_seconds=0.1)
    for level in bots:
        ana.http(b).post(f"/api/tables/{game_id}/bots/", {"level": level}, expect=201)
    ana.http(a).post(f"/api/tables/{game_id}/start/")

    played = play_randomly(game_id, {seat_of(game_id, ana.user): ana}, [a, b], random.Random(3))

    game = Game.objects.get(pk=game_id)
    assert game.status == Game.Status.FINISHED
    rows = assert_log_is_sound(game_id)
    bot_moves = [r for r in rows if r.actor.startswith("bot:") and r.command_id is not None]
    assert played > 5 and len(bot_moves) > 5
    assert_audit_passes(game_id)
