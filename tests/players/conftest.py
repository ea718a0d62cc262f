"""Fixtures of the players tests."""

from __future__ import annotations

import pytest

from games import services
from games.models import Game
from tests.games.helpers import humans_game, play_out


@pytest.fixture
def rated(make_user):
    """One rated two-player game with a winner: played for a while, then ana resigns
    (played to its end, the first-legal-command game can tie, which moves nobody)."""
    users = [make_user("ana"), make_user("bob")]
    game = play_out(humans_game(users), users, moves=6)
    services.game_resign(game_id=game.id, user=users[0])
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED
    winner = game.seats.get(number=game.outcome["ranking"][0][0]).user
    assert winner == users[1]
    return users, winner
