"""Bot opponents apply the timeout policy for themselves: a seat out of time at a table
where every other seat is a bot gets its turn skipped (a bot plays it), and at its
BOT_EXPEL_AFTER_TIMEOUTS-th turn out of time it is expelled — recorded as the system's
skip and expel, as a person's would be."""

from __future__ import annotations

import pytest

from audit.stored import audit_game
from games import selectors, services
from games.models import Game, GameEvent
from tests.games.helpers import humans_game, pin_seed, to_act

pytestmark = pytest.mark.django_db(transaction=True)
BLITZ = {"kind": "realtime", "minutes": 5, "increment_seconds": 10}


def against_bots(user, time_control=BLITZ) -> Game:
    game = services.table_create(
        user=user, ruleset="kingdoms", seats=3, options={}, time_control=time_control
    )
    for _ in range(2):
        services.bot_add(game_id=game.id, user=user, level="easy")
    pin_seed(game, "clock-policy-0")
    services.game_start(game_id=game.id, user=user)
    game.refresh_from_db()
    return game


def since(game: Game, head: int) -> list[GameEvent]:
    return list(GameEvent.objects.filter(game=game, seq__gt=head).order_by("seq"))


def test_bots_skip_a_seat_out_of_time_then_expel_it_at_its_third_turn_out_of_time(
    make_user, clock, settings
):
    settings.BOT_EXPEL_AFTER_TIMEOUTS = 3
    ana = make_user("ana")
    game = against_bots(ana)
    seat = game.seats.get(user=ana).number
    assert to_act(game) == {seat}
    clock.advance(minutes=5, seconds=1)
    head = game.head_seq
    services.clock_sweep()
    rows = since(game, head)
    types = [r.type for r in rows]
    assert types[:3] == ["clock_expired", "clock_pressed", "turn_skipped"]
    assert rows[2].actor == "system" and rows[2].public == {"seat": seat, "by": None}
    assert any(r.actor == f"bot:{seat}" for r in rows), "a bot played the skipped turn"
    game.refresh_from_db()
    texts = {e["type"]: e["text"] for e in selectors.events_after(game, None, head)}
    assert texts["turn_skipped"] == "The bots skipped ana's turn; a bot plays it."
    assert to_act(game) == {seat}, "the bots played on: ana's turn again"

    # Ana's next turn: no clock runs for her; a move's time (the increment) passes.
    head = Game.objects.get(pk=game.pk).head_seq
    clock.advance(seconds=5)
    services.clock_sweep()
    assert since(game, head) == [], "within the increment ana may still come back"
    clock.advance(seconds=6)
    services.clock_sweep()
    assert [r.type for r in since(game, head)][:1] == ["turn_skipped"]

    head = Game.objects.get(pk=game.pk).head_seq
    clock.advance(seconds=11)
    services.clock_sweep()
    expelled = since(game, head)[0]
    assert (expelled.type, expelled.actor) == ("seat_expelled", "system")
    assert expelled.public == {"seat": seat, "by": None}
    game.refresh_from_db()
    assert game.seats.get(user=ana).expelled
    assert game.status == Game.Status.FINISHED, "the bots played the game out"
    assert game.outcome["ranking"][-1] == [seat]
    assert audit_game(game).passed, audit_game(game).problems


def test_a_player_back_in_time_plays_on_and_the_bots_wait(make_user, clock):
    ana = make_user("ana")
    game = against_bots(ana)
    seat = game.seats.get(user=ana).number
    clock.advance(minutes=5, seconds=1)
    services.clock_sweep()
    assert to_act(game) == {seat}
    legal = selectors.legal_commands(game, seat)
    services.game_submit(game_id=game.id, user=ana, command=legal[0])
    game.refresh_from_db()
    # Back in the game with the increment (10 s) as her whole bank, her clock running.
    assert selectors.game_view(game, None)["state"]["clock"]["timed_out"] == []
    head = game.head_seq
    clock.advance(seconds=5)
    services.clock_sweep()
    assert not GameEvent.objects.filter(game=game, seq__gt=head).exists()


def test_with_a_person_among_the_opponents_the_choice_stays_theirs(make_user, clock):
    players = [make_user("ana"), make_user("bob")]
    game = humans_game(players, time_control=BLITZ, bots=1)
    (late,) = to_act(game)
    clock.advance(minutes=6)
    services.clock_sweep()
    clock.advance(minutes=1)
    services.clock_sweep()
    types = list(GameEvent.objects.filter(game=game).values_list("type", flat=True))
    assert "clock_expired" in types
    assert "turn_skipped" not in types and "seat_expelled" not in types
