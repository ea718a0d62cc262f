"""PostgreSQL only: players asking for the same quick match at the same moment land at one
table (the queue's advisory lock), never at two half-empty ones nor none."""

from __future__ import annotations

import threading

import pytest
from django.db import connections

from games import services
from games.models import Game, MatchRequest
from tests.conftest import needs_postgres

pytestmark = [needs_postgres, pytest.mark.django_db(transaction=True)]


@pytest.mark.parametrize("seats", [2, 3])
def test_players_asking_at_once_land_at_one_table(make_user, seats):
    users = [make_user(f"p{i}") for i in range(seats)]
    start = threading.Barrier(seats)
    answers: list[dict] = []
    lock = threading.Lock()

    def ask(user) -> None:
        start.wait()
        try:
            answer = services.quick_match_join(user=user, ruleset="kingdoms", seats=seats)
            with lock:
                answers.append(answer)
        finally:
            connections.close_all()

    threads = [threading.Thread(target=ask, args=(user,)) for user in users]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    game = Game.objects.get()
    assert game.status == Game.Status.ACTIVE
    assert {s.user_id for s in game.seats.all()} == {u.pk for u in users}
    assert not MatchRequest.objects.filter(game__isnull=True).exists()
    for user in users:
        assert services.quick_match_state(user=user) == {"status": "matched", "table": str(game.id)}
