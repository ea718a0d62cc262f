"""The bot turns owed (bots/scheduling.py): recorded on the game's row by the statement of the
move that made them due, sent again once their lease runs out, played once whatever the
copies."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.db import OperationalError, transaction

from bots import scheduling, tasks, turns
from games import selectors, services
from games.models import Game, GameEvent
from tests.games.helpers import game_with_bots, to_act

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def sent(monkeypatch, settings) -> list[tuple]:
    """Bot tasks handed to the broker (BOT_RUNNER "celery"), not run."""
    settings.BOT_RUNNER = "celery"
    calls: list[tuple] = []
    monkeypatch.setattr(tasks.take_turn, "apply_async", lambda **kw: calls.append(kw["args"]))
    return calls


@pytest.fixture
def broker_down(monkeypatch, settings) -> None:
    settings.BOT_RUNNER = "celery"

    def refused(**_):
        raise ConnectionError("Error 111 connecting to 127.0.0.1:6379. Connection refused.")

    monkeypatch.setattr(tasks.take_turn, "apply_async", refused)


def human_move(game: Game, user) -> None:
    (seat,) = to_act(game)
    command = selectors.legal_commands(game, seat)[0]
    services.game_submit(game_id=game.id, user=user, command=command)
    game.refresh_from_db()


def at_the_bots_turn(user, settings) -> tuple[Game, int]:
    """A human-against-medium-bot game, played by hand (no runner) up to the bot's move."""
    runner, settings.BOT_RUNNER = settings.BOT_RUNNER, "none"
    game = game_with_bots(user, bots=1, level="medium")
    services.game_start(game_id=game.id, user=user)
    game.refresh_from_db()
    while not turns.bot_seats_to_act(game):
        human_move(game, user)
    settings.BOT_RUNNER = runner
    ((seat, _),) = turns.bot_seats_to_act(game)
    return game, seat


def bot_moves(game: Game, seq: int, seat: int) -> int:
    command_id = turns.bot_command_id(game.id, seq, seat)
    return GameEvent.objects.filter(game=game, command_id=command_id).count()


def owed(game: Game) -> tuple[int, object, int]:
    """(head, when the turns owed there are sent again, sends so far) as the row has them."""
    row = Game.objects.get(pk=game.pk)
    return row.head_seq, row.bots_due_at, row.bots_sends


def owe_now(game: Game, now) -> None:
    """As if the turns owed at the head had a lease that ran out at ``now``."""
    Game.objects.filter(pk=game.pk).update(bots_due_at=now, bots_sends=0)


def test_a_started_table_owes_its_bots_turn_and_sends_it(make_user, settings, sent):
    user = make_user()
    game = game_with_bots(user, bots=2, level="easy", join=False)
    services.game_start(game_id=game.id, user=user)
    game.refresh_from_db()
    head, due_at, sends = owed(game)
    assert head == game.head_seq and due_at is not None and sends == 0
    assert [args[2] for args in sent] == [game.head_seq]


def test_a_move_that_rolls_back_owes_nothing_new(make_user, settings, sent):
    user = make_user()
    game, seat = at_the_bots_turn(user, settings)
    before = owed(game)
    # The bot's move then the human's: back at a bot's turn, inside a transaction undone.
    with pytest.raises(RuntimeError), transaction.atomic():
        turns.take_turn(game.id, seat, game.head_seq)
        game.refresh_from_db()
        human_move(game, user)
        assert owed(game)[0] == game.head_seq and owed(game)[1] is not None
        raise RuntimeError("the write fails after the turns owed were recorded")
    assert owed(game) == before
    assert sent == []


def test_a_move_to_a_humans_turn_owes_no_bot_turn(make_user, settings):
    user = make_user()
    game, seat = at_the_bots_turn(user, settings)
    settings.BOT_RUNNER = "none"
    turns.take_turn(game.id, seat, game.head_seq)
    game.refresh_from_db()
    assert not turns.bot_seats_to_act(game)
    assert owed(game)[1] is None


def test_a_turn_whose_send_failed_is_sent_again_once_its_lease_ran_out(
    make_user, settings, clock, broker_down, monkeypatch
):
    user = make_user()
    game, seat = at_the_bots_turn(user, settings)
    turns.take_turn(game.id, seat, game.head_seq)  # the bot moves; the human's turn
    game.refresh_from_db()
    while not turns.bot_seats_to_act(game):  # the move that makes the bot due: its send fails
        human_move(game, user)
    assert owed(game)[0] == game.head_seq and owed(game)[1] is not None
    clock.advance(seconds=scheduling.lease_seconds(game.think_seconds, 0))
    assert scheduling.owed_turns_send() == 0  # the broker is still down: nothing sent

    calls: list[tuple] = []
    monkeypatch.setattr(tasks.take_turn, "apply_async", lambda **kw: calls.append(kw["args"]))
    assert scheduling.owed_turns_send() == 0, "sent before the next lease ran out"
    clock.advance(seconds=scheduling.lease_seconds(game.think_seconds, 1))
    assert scheduling.owed_turns_send() == 1
    assert calls == [(str(game.id), seat, game.head_seq)]
    _, due_at, sends = owed(game)
    assert sends == 2
    assert due_at == clock.now + timedelta(seconds=scheduling.lease_seconds(game.think_seconds, 2))
    assert scheduling.owed_turns_send() == 0, "sent again before the doubled lease ran out"


def test_the_task_plays_the_owed_turn_once_and_clears_it(make_user, settings, clock, sent):
    user = make_user()
    game, seat = at_the_bots_turn(user, settings)
    head = game.head_seq
    owe_now(game, clock.now)
    assert scheduling.owed_turns_send() == 1
    settings.BOT_RUNNER = "none"
    # The dispatcher's copy and the lost original both arrive: one move.
    played = [tasks.take_turn.apply(args=(str(game.id), seat, head)).get() for _ in range(2)]
    assert played == [True, False]
    assert bot_moves(game, head, seat) == 1
    assert owed(game)[1] is None  # the human is to act


def test_a_head_with_no_bot_to_act_owes_nothing_and_nothing_is_sent(
    make_user, settings, clock, sent
):
    user = make_user()
    game, seat = at_the_bots_turn(user, settings)
    settings.BOT_RUNNER = "none"
    turns.take_turn(game.id, seat, game.head_seq)  # played; now the human is to act
    game.refresh_from_db()
    owe_now(game, clock.now)
    settings.BOT_RUNNER = "celery"
    assert scheduling.owed_turns_send() == 0 and sent == []
    assert owed(game)[1] is None


def test_a_turn_that_finds_the_database_away_is_tried_again(make_user, settings, monkeypatch):
    user = make_user()
    game, seat = at_the_bots_turn(user, settings)
    settings.BOT_RUNNER = "none"
    real, failures = turns.take_turn, []

    def flaky(*args):
        if len(failures) < 2:
            failures.append(args)
            raise OperationalError("the server closed the connection unexpectedly")
        return real(*args)

    monkeypatch.setattr(turns, "take_turn", flaky)
    assert tasks.take_turn.apply(args=(str(game.id), seat, game.head_seq)).get() is True
    assert len(failures) == 2
    assert bot_moves(game, game.head_seq, seat) == 1


def test_a_turn_another_dispatcher_claimed_is_not_sent_twice(make_user, settings, clock, sent):
    user = make_user()
    game, _seat = at_the_bots_turn(user, settings)
    owe_now(game, clock.now)
    read_by_both = Game.objects.get(pk=game.pk)
    assert scheduling.claim(read_by_both, clock.now)  # the other dispatcher was first
    assert not scheduling.claim(read_by_both, clock.now)
    assert scheduling.owed_turns_send() == 0 and sent == []
