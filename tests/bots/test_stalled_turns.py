"""A lost bot turn is played again by the clock sweep, once, whatever the duplicates."""

from __future__ import annotations

from datetime import timedelta

import pytest
from celery.exceptions import SoftTimeLimitExceeded
from django.core.management import call_command

from bots import dispatch, tasks, turns
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
    """A human-against-medium-bot game at the bot's move, whose task was never run."""
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


def stall_time(game: Game, settings) -> timedelta:
    return timedelta(seconds=game.think_seconds + settings.BOT_STALL_SECONDS)


def bot_commands(game: Game, seq: int, seat: int) -> int:
    command_id = turns.bot_command_id(game.id, seq, seat)
    return GameEvent.objects.filter(game=game, command_id=command_id).count()


def test_a_lost_bot_turn_is_played_by_the_sweep_exactly_once_even_if_it_sweeps_twice(
    make_user, settings, clock
):
    game, seat = lost_bot_turn(make_user(), settings)
    head = game.head_seq
    settings.BOT_RUNNER = "inline"
    clock.advance(seconds=stall_time(game, settings).total_seconds() + 1)
    assert tasks.sweep_clocks.apply().get() == 0  # no clock here: no timeout
    game.refresh_from_db()
    after_first = game.head_seq
    assert after_first > head and bot_commands(game, head, seat) == 1
    assert not turns.bot_seats_to_act(game), "the bot played on until the human's move"
    tasks.sweep_clocks.apply().get()
    game.refresh_from_db()
    assert game.head_seq == after_first


def test_a_bot_turn_is_not_nudged_before_the_think_time_and_margin_have_passed(
    make_user, settings, clock, sent
):
    game, seat = lost_bot_turn(make_user(), settings)
    settings.BOT_RUNNER = "celery"
    moved_at = GameEvent.objects.get(game=game, seq=game.head_seq).recorded_at
    clock.now = moved_at + stall_time(game, settings) - timedelta(seconds=1)
    assert dispatch.stalled_bot_turns_nudge() == 0 and sent == []
    clock.advance(seconds=1)
    assert dispatch.stalled_bot_turns_nudge() == 1
    assert sent == [
        {
            "args": (str(game.id), seat, game.head_seq),
            "queue": settings.BOT_QUEUE,
            **dispatch.task_time_limits(game),
        }
    ]


def test_one_sweeper_nudges_a_stalled_head_once_per_stall_period(make_user, settings, clock, sent):
    game, _seat = lost_bot_turn(make_user(), settings)
    settings.BOT_RUNNER = "celery"
    clock.advance(seconds=stall_time(game, settings).total_seconds())
    dispatch.stalled_bot_turns_nudge()
    dispatch.stalled_bot_turns_nudge()  # the next sweep, a few seconds later at most
    assert len(sent) == 1
    clock.advance(seconds=settings.BOT_STALL_SECONDS)
    dispatch.stalled_bot_turns_nudge()
    assert len(sent) == 2 and sent[0] == sent[1]


def test_duplicate_nudges_play_the_turn_once(make_user, settings, clock, sent):
    game, seat = lost_bot_turn(make_user(), settings)
    head = game.head_seq
    settings.BOT_RUNNER = "celery"
    settings.BOT_STALL_SECONDS = 0  # every sweep nudges: as several sweepers would
    clock.advance(seconds=game.think_seconds)
    dispatch.stalled_bot_turns_nudge()
    dispatch.stalled_bot_turns_nudge()
    assert len(sent) == 2 and sent[0]["args"] == sent[1]["args"] == (str(game.id), seat, head)
    settings.BOT_RUNNER = "none"  # run the two tasks by hand, in turn
    played = [tasks.take_turn.apply(args=job["args"]).get() for job in sent]
    assert played == [True, False]
    assert bot_commands(game, head, seat) == 1


def test_a_human_s_turn_is_never_nudged(make_user, settings, clock, sent):
    user = make_user()
    game, _seat = lost_bot_turn(user, settings)
    settings.BOT_RUNNER = "inline"
    dispatch.bot_turns_schedule(game.id)  # the bot moves; now the human is to act
    game.refresh_from_db()
    assert not turns.bot_seats_to_act(game)
    settings.BOT_RUNNER = "celery"
    clock.advance(days=2)
    assert dispatch.stalled_bot_turns_nudge() == 0 and sent == []


def test_a_lost_bot_move_for_a_skipped_turn_is_nudged(make_user, settings, clock):
    players = [make_user("ana"), make_user("bob"), make_user("cy")]
    game = humans_game(players, time_control={"kind": "realtime", "minutes": 5})
    (late,) = to_act(game)
    clock.advance(minutes=6)
    services.clock_sweep()
    other = next(u for u in players if u != game.seats.get(number=late).user)
    settings.BOT_RUNNER = "none"  # the skipped turn's bot task is lost
    services.game_skip(game_id=game.id, user=other, seat=late)
    game.refresh_from_db()
    head = game.head_seq
    assert late in to_act(game)
    settings.BOT_RUNNER = "inline"
    clock.advance(seconds=stall_time(game, settings).total_seconds())
    assert dispatch.stalled_bot_turns_nudge() == 1
    assert bot_commands(game, head, late) == 1
    assert late not in to_act(game)


def test_the_sweep_command_reports_the_stalled_turns_it_scheduled(
    make_user, settings, clock, sent, capsys
):
    game, _seat = lost_bot_turn(make_user(), settings)
    settings.BOT_RUNNER = "celery"
    clock.advance(seconds=stall_time(game, settings).total_seconds())
    call_command("sweep_clocks")
    out = capsys.readouterr().out
    assert "0 timeout event(s) recorded" in out
    assert "1 stalled bot turn(s) scheduled again" in out
    assert len(sent) == 1


@pytest.mark.parametrize("where", ["loading", "submitting"])
def test_a_soft_time_limit_outside_the_strategy_gives_up_and_the_sweep_plays_the_turn(
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
    monkeypatch.setattr(module, name, real)
    settings.BOT_RUNNER = "inline"
    clock.advance(seconds=stall_time(game, settings).total_seconds())
    tasks.sweep_clocks.apply().get()
    assert bot_commands(game, head, seat) == 1


# The sweeper thread writes from another connection, which pytest's in-memory SQLite
# database refuses (as in tests/bots/test_clocks.py).
@needs_postgres
def test_the_embedded_sweeper_thread_plays_a_turn_its_queue_lost(make_user, settings):
    import time

    game, seat = lost_bot_turn(make_user(), settings)  # as after a restart
    head = game.head_seq
    settings.BOT_STALL_SECONDS = 0
    settings.BOT_THINK_SECONDS = 0.1
    settings.CLOCK_SWEEP_EVERY = 0.05
    settings.BOT_RUNNER = "thread"
    try:
        dispatch.clock_sweeper_ensure()
        # Then inline: the nudged turn is played in the sweeper thread itself (the bot
        # thread never stops, so it would keep a database session past the test run).
        settings.BOT_RUNNER = "inline"
        for _ in range(200):
            if bot_commands(game, head, seat):
                break
            time.sleep(0.05)
    finally:
        dispatch.clock_sweeper_stop()
    assert bot_commands(game, head, seat) == 1
