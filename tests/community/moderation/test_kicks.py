"""Kicking a player: a bot takes an active seat, an open table frees it."""

from __future__ import annotations

import pytest

from audit.stored import audit_game
from games import services
from games.errors import ServiceError
from games.models import Game, GameEvent
from tests.community.moderation.helpers import Action, record_of
from tests.games.helpers import humans_game, play_out

pytestmark = pytest.mark.django_db(transaction=True)


def test_a_kicked_players_seat_is_played_by_a_bot_and_the_game_finishes(trio, mod):
    game = humans_game(trio)
    seat = game.seats.get(user=trio[1])
    services.player_kick(game_id=game.id, moderator=mod, player=trio[1], reason="abusive chat")
    seat.refresh_from_db()
    assert seat.kicked and seat.bot_level == services.TAKEOVER_LEVEL
    kicked = GameEvent.objects.get(game=game, type="seat_kicked")
    assert kicked.actor == "staff:mod"
    assert kicked.public == {"seat": seat.number, "reason": "abusive chat"}
    with pytest.raises(ServiceError) as err:
        services.game_submit(game_id=game.id, user=trio[1], command={"type": "pass"})
    assert err.value.code == "seat_departed"
    game = play_out(game, [trio[0], trio[2]])
    assert game.status == Game.Status.FINISHED
    assert GameEvent.objects.filter(game=game, actor=f"bot:{seat.number}").exists()
    assert game.outcome["ranking"][-1] == [seat.number]
    assert audit_game(game).passed, audit_game(game).problems


def test_kicking_from_an_open_table_frees_the_seat(trio, mod):
    game = services.table_create(user=trio[0], ruleset="kingdoms", seats=3)
    services.table_join(game_id=game.id, user=trio[1])
    services.player_kick(game_id=game.id, moderator=mod, player=trio[1], reason="spam")
    assert not game.seats.filter(user=trio[1]).exists()
    assert record_of(Action.KICK).event_seq is None


def test_kicking_needs_a_reason_and_a_seated_player(trio, mod):
    game = humans_game(trio[:2])
    with pytest.raises(ServiceError) as err:
        services.player_kick(game_id=game.id, moderator=mod, player=trio[0], reason=" ")
    assert err.value.code == "reason_required"
    with pytest.raises(ServiceError) as err:
        services.player_kick(game_id=game.id, moderator=mod, player=trio[2], reason="x")
    assert err.value.code == "not_seated"
