"""A guided first game (the lobby's Learn to play) is dealt the same every time: its seed
is the game's guided seed, published by its commitment like any other; other tables
keep a secret random seed."""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from games import services
from games.models import Game, GameEvent
from games.services.lobby import guided_seed
from games.storage.chain import seed_commitment

pytestmark = pytest.mark.django_db


def guided_table(user, ruleset: str) -> Game:
    client = APIClient()
    client.force_authenticate(user)
    answer = client.post(
        "/api/tables/", {"ruleset": ruleset, "seats": 2, "guided": True}, format="json"
    )
    assert answer.status_code == 201, answer.json()
    game = Game.objects.get(id=answer.json()["id"])
    services.bot_add(game_id=game.id, user=user, level="easy")
    services.game_start(game_id=game.id, user=user)
    return game


@pytest.mark.parametrize("ruleset", ["kingdoms", "kingdom-builder"])
def test_two_guided_tables_of_a_game_are_dealt_alike(make_user, ruleset):
    ana, bob = make_user("ana"), make_user("bob")
    first, second = guided_table(ana, ruleset), guided_table(bob, ruleset)
    assert first.seed == second.seed == guided_seed(ruleset)
    assert first.seed_commitment == seed_commitment(first.seed)
    # After the table's start (the players' names): the same set-up and draws.
    deal = [
        [(e.type, e.public, e.private) for e in GameEvent.objects.filter(game=g).order_by("seq")]
        for g in (first, second)
    ]
    deal = [events[1:5] for events in deal]
    assert deal[0] == deal[1]
    other = services.table_create(user=ana, ruleset=ruleset, seats=2)
    assert other.seed not in (first.seed, guided_seed("kingdoms"))
