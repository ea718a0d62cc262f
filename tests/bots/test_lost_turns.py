"""A lost bot turn is sent again from the game's row once its lease runs out
(bots/scheduling.py ``owed_turns_send``), by Celery beat, the embedded ticker or
``manage.py sweep_clocks``, and played once, whatever the copies."""

from __future__ import annotations

from datetime import timedelta

import pytest
from celery.exceptions import SoftTimeLimitExceeded
from django.core.management import call_command
from django.utils import timezone

from bots import runners, scheduling, tasks, turns
from games import selectors, services
from games.models import Game, GameEvent
from tests.conftest import needs_postgres
from tests.games.helpers import game_with_bots, humans_game, to_act

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def sent(monkeypatch) -> list[dict]:
    """Bot tasks sent to the broker, not run (BOT_RUNNER "celery")."""
    calls: list[dict] = []
    monkeypatch.setattr(tasks.take_turn, "apply_async", lambda **kw: calls.append(kw))
    return calls


def lost_bot_turn(user, settings) -> tuple[Game, int]:
    """A human-against-medium-bot game at the bot's move, whose turn was never played."""
    settings.BOT_RUNNER = "none"
    game = game_with_bots(user, bots=1, level="medium")
    services.game_start(game_id=game.id, user=user)
    game.refresh_from_db()
    while not turns.bot_seats_to_act(game):
        (seat,) = to_act(game)
        command = selectors.legal_commands(game, seat)[0]
        services.game_submit(game_id=game.id, user=user, command=command)
        game.refresh_from_db()
    ((seat, _level),) = turns.bot_seats_to_act(game)
    return game, seat


def lease(game: Game) -> timedelta:
    """The first lease of the turns owed at the head: past it, they are sent again."""
    return timedelta(seconds=scheduling.lease_seconds(game.think_seconds, 0))


def bot_commands(game: Game, seq: int, seat: int) -> int:
    command_id = turns.bot_command_id(game.id, seq, seat)
    return GameEvent.objects.filter(game=game, command_id=command_id).count()


def test_a_lost_bot_turn_is_played_by_the_dispatcher_exactly_once_even_if_it_runs_twice(
    make_user, settings, clock
):
    game, seat = lost_bot_turn(make_user(), settings)
    head = game.head_seq
    settings.BOT_RUNNER = "inline"
    clock.advance(seconds=lease(game).total_seconds())
    assert tasks.dispatch_bot_turns.apply().get() == 1  # Celery beat's task
    game.refresh_from_db()
    after_first = game.head_seq
    assert after_first > head and bot_commands(game, head, seat) == 1
    assert not turns.bot_seats_to_act(game), "the bot played on until the human's move"
    assert game.bots_due_at is None
    assert tasks.dispatch_bot_turns.apply().get() == 0
    game.refresh_from_db()
    assert game.head_seq == after_first


def test_a_bot_turn_is_not_sent_again_before_its_lease_ran_out(make_user, settings, clock, sent):
    game, seat = lost_bot_turn(make_user(), settings)
    settings.BOT_RUNNER = "celery"
    moved_at = GameEvent.objects.get(game=game, seq=game.head_seq).recorded_at
    clock.now = moved_at + lease(game) - timedelta(seconds=1)
    assert scheduling.owed_turns_send() == 0 and sent == []
    clock.advance(seconds=1)
    assert scheduling.owed_turns_send() == 1
    assert sent == [
        {
            "args": (str(game.id), seat, game.head_seq),
            "queue": settings.BOT_QUEUE,
            **runners.task_time_limits(game),
        }
    ]


def test_the_original_and_the_copy_sent_again_play_the_turn_once(make_user, settings, clock, sent):
    game, seat = lost_bot_turn(make_user(), settings)
    head = game.head_seq
    settings.BOT_RUNNER = "celery"
    scheduling.send(game, scheduling.jobs_of(game))  # the original, slow to be taken
    clock.advance(seconds=lease(game).total_seconds())
    assert scheduling.owed_turns_send() == 1  # its copy
    assert len(sent) == 2 and sent[0]["args"] == sent[1]["args"] == (str(game.id), seat, head)
    settings.BOT_RUNNER = "none"  # run the two tasks by hand, in turn
    played = [tasks.take_turn.apply(args=job["args"]).get() for job in sent]
    assert played == [True, False]
    assert bot_commands(game, head, seat) == 1


def test_a_human_s_turn_is_never_sent(make_user, settings, clock, sent):
    user = make_user()
    game, _seat = lost_bot_turn(user, settings)
    settings.BOT_RUNNER = "inline"
    scheduling.send(game, scheduling.jobs_of(game))  # the bot moves; the human is to act
    game.refresh_from_db()
    assert not turns.bot_seats_to_act(game)
    settings.BOT_RUNNER = "celery"
    clock.advance(days=2)
    assert scheduling.owed_turns_send() == 0 and sent == []


def test_a_lost_bot_move_for_a_skipped_turn_is_sent_again(make_user, settings, clock):
    players = [make_user("ana"), make_user("bob"), make_user("cy")]
    game = humans_game(players, time_control={"kind": "realtime", "minutes": 5})
    (late,) = to_act(game)
    clock.advance(minutes=6)
    services.clock_sweep()
    other = next(u for u in players if u != game.seats.get(number=late).user)
    settings.BOT_RUNNER = "none"  # the skipped turn's bot move is lost
    services.game_skip(game_id=game.id, user=other, seat=late)
    game.refresh_from_db()
    head = game.head_seq
    assert late in to_act(game)
    settings.BOT_RUNNER = "inline"
    clock.advance(seconds=lease(game).total_seconds())
    assert scheduling.owed_turns_send() == 1
    assert bot_commands(game, head, late) == 1
    assert late not in to_act(game)


def test_the_sweep_command_reports_the_owed_turns_it_sent_again(
    make_user, settings, clock, sent, capsys
):
    game, _seat = lost_bot_turn(make_user(), settings)
    settings.BOT_RUNNER = "celery"
    clock.advance(seconds=lease(game).total_seconds())
    call_command("sweep_clocks")
    out = capsys.readouterr().out
    assert "0 timeout event(s) recorded" in out
    assert "1 owed bot turn(s) sent again" in out
    assert len(sent) == 1


@pytest.mark.parametrize("where", ["loading", "submitting"])
def test_a_soft_time_limit_outside_the_strategy_gives_up_and_the_outbox_plays_the_turn(
    make_user, settings, clock, monkeypatch, where
):
    game, seat = lost_bot_turn(make_user(), settings)
    head = game.head_seq
    target = {"loading": (turns, "bot_seats_to_act"), "submitting": (services, "game_submit")}
    module, name = target[where]
    real = getattr(module, name)

    def overrun(*args, **kwargs):
        raise SoftTimeLimitExceeded()

    monkeypatch.setattr(module, name, overrun)
    assert tasks.take_turn.apply(args=(str(game.id), seat, head)).get() is False
    game.refresh_from_db()
    assert game.head_seq == head, "the interrupted turn recorded nothing"
    assert game.bots_due_at is not None, "the turn that gave up is still owed"
    monkeypatch.setattr(module, name, real)
    settings.BOT_RUNNER = "inline"
    clock.advance(seconds=lease(game).total_seconds())
    tasks.dispatch_bot_turns.apply().get()
    assert bot_commands(game, head, seat) == 1


# The ticker thread writes from another connection, which pytest's in-memory SQLite
# database refuses (as in tests/bots/test_clocks.py).
@needs_postgres
def test_the_embedded_ticker_plays_a_turn_its_queue_lost(make_user, settings):
    import time

    game, seat = lost_bot_turn(make_user(), settings)  # as after a restart
    head = game.head_seq
    Game.objects.filter(pk=game.pk).update(bots_due_at=timezone.now())  # its lease ran out
    settings.CLOCK_SWEEP_EVERY = 0.05
    settings.BOT_RUNNER = "thread"
    try:
        scheduling.ticker_start()
        # Then inline: the turn sent again is played in the ticker thread itself (the bot
        # threads never stop, so they would keep a database session past the test run).
        settings.BOT_RUNNER = "inline"
        for _ in range(200):
            if bot_commands(game, head, seat):
                break
            time.sleep(0.05)
    finally:
        scheduling.ticker_stop()
    assert bot_commands(game, head, seat) == 1
