"""Untimed tables and players gone for good: a person to act who has not moved for
ABSENT_AFTER_HOURS is declared gone (``seat_absent``, by the system). The others may then
skip their turn or expel them, as after a timeout; at a table of bots, a bot takes the
seat at once. A player who moves again is back (``seat_returned``)."""

from __future__ import annotations

import pytest

from audit.stored import audit_game
from games import selectors, services
from games.errors import ServiceError
from games.models import Game, GameEvent
from tests.games.helpers import humans_game, pin_seed, to_act

pytestmark = pytest.mark.django_db(transaction=True)


def types_since(game: Game, head: int) -> list[str]:
    return list(
        GameEvent.objects.filter(game=game, seq__gt=head)
        .order_by("seq")
        .values_list("type", flat=True)
    )


def test_a_player_gone_too_long_at_a_table_of_bots_is_replaced_by_a_bot(make_user, clock, settings):
    settings.ABSENT_AFTER_HOURS = 48
    ana = make_user("ana")
    game = services.table_create(user=ana, ruleset="kingdoms", seats=3, options={})
    for _ in range(2):
        services.bot_add(game_id=game.id, user=ana, level="easy")
    pin_seed(game, "absent-0")
    services.game_start(game_id=game.id, user=ana)
    game.refresh_from_db()
    seat = game.seats.get(user=ana).number
    assert to_act(game) == {seat}
    clock.advance(hours=47)
    services.clock_sweep()
    assert types_since(game, game.head_seq) == []
    clock.advance(hours=1, seconds=1)
    services.clock_sweep()
    assert types_since(game, game.head_seq)[:2] == ["seat_absent", "seat_expelled"]
    game.refresh_from_db()
    assert game.seats.get(user=ana).expelled
    assert game.status == Game.Status.FINISHED and game.outcome["ranking"][-1] == [seat]
    assert audit_game(game).passed, audit_game(game).problems


def test_the_others_may_skip_or_expel_a_player_gone_too_long(make_user, clock):
    players = [make_user("ana"), make_user("bob"), make_user("cy")]
    game = humans_game(players)
    (late,) = to_act(game)
    others = [u for u in players if game.seats.get(user=u).number != late]
    with pytest.raises(ServiceError) as err:
        services.game_skip(game_id=game.id, user=others[0], seat=late)
    assert err.value.code == "untimed"
    clock.advance(hours=49)
    services.clock_sweep()
    game.refresh_from_db()
    assert types_since(game, game.head_seq - 1) == ["seat_absent"]
    view = selectors.game_view(game, None)["state"]
    assert view["absent"] == [late]
    line = selectors.events_after(game, None, game.head_seq - 1)[0]["text"]
    assert "has not moved for a long time" in line
    services.clock_sweep()  # said once: the next sweep adds nothing
    assert GameEvent.objects.filter(game=game, type="seat_absent").count() == 1

    head = Game.objects.get(pk=game.pk).head_seq
    services.game_skip(game_id=game.id, user=others[0], seat=late)
    game.refresh_from_db()
    assert types_since(game, head)[0] == "turn_skipped"
    assert any(r.actor == f"bot:{late}" for r in GameEvent.objects.filter(game=game, seq__gt=head))

    services.game_expel(game_id=game.id, user=others[1], seat=late)
    game.refresh_from_db()
    assert game.seats.get(number=late).expelled
    assert "absent" not in selectors.game_view(game, None)["state"]
    assert audit_game(game).passed, audit_game(game).problems


def test_a_player_gone_too_long_who_moves_again_is_back(make_user, clock):
    players = [make_user("ana"), make_user("bob")]
    game = humans_game(players)
    (late,) = to_act(game)
    user = game.seats.get(number=late).user
    clock.advance(hours=49)
    services.clock_sweep()
    game.refresh_from_db()
    head = game.head_seq
    services.game_submit(
        game_id=game.id, user=user, command=selectors.legal_commands(game, late)[0]
    )
    game.refresh_from_db()
    assert types_since(game, head)[0] == "seat_returned"
    assert "absent" not in selectors.game_view(game, None)["state"]
    other = next(u for u in players if u != user)
    with pytest.raises(ServiceError) as err:
        services.game_expel(game_id=game.id, user=other, seat=late)
    assert err.value.code == "untimed"
    assert audit_game(game).passed, audit_game(game).problems
