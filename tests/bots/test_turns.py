"""Bot turns: idempotent delivery, stale tasks, all-bot games in-process."""

from __future__ import annotations

import time

import pytest
from celery.exceptions import SoftTimeLimitExceeded

from bots import runners, scheduling, turns
from bots.search.budget import current_budget
from bots.strategies import get_strategy
from games import services
from games.models import Game, GameEvent
from tests.games.helpers import game_with_bots

pytestmark = pytest.mark.django_db(transaction=True)
# The levels that search for the table's whole thinking time (games/services/lobby.py).
SEARCHING = ["hard", "expert"]


def test_the_same_task_delivered_twice_appends_one_command(make_user, settings):
    settings.BOT_RUNNER = "none"
    user = make_user()
    game = game_with_bots(user, bots=2, join=False, level="easy")
    services.game_start(game_id=game.id, user=user)
    game.refresh_from_db()
    head = game.head_seq
    ((seat, _level),) = turns.bot_seats_to_act(game)
    assert turns.take_turn(game.id, seat, head) is True
    game.refresh_from_db()
    after_first = game.head_seq
    # Redelivered (e.g. acks_late after a worker crash): the seq moved on, so a no-op.
    assert turns.take_turn(game.id, seat, head) is False
    game.refresh_from_db()
    assert game.head_seq == after_first
    assert (
        GameEvent.objects.filter(
            game=game, command_id=turns.bot_command_id(game.id, head, seat)
        ).count()
        == 1
    )


def test_a_stale_task_for_a_seat_not_to_act_does_nothing(make_user, settings):
    settings.BOT_RUNNER = "none"
    user = make_user()
    game = game_with_bots(user, bots=2, join=False, level="easy")
    services.game_start(game_id=game.id, user=user)
    game.refresh_from_db()
    ((seat, _level),) = turns.bot_seats_to_act(game)
    other = 1 - seat
    assert turns.take_turn(game.id, other, game.head_seq) is False
    assert turns.take_turn(game.id, seat, game.head_seq + 7) is False


def test_bot_command_ids_are_stable_per_game_seq_and_seat():
    a = turns.bot_command_id("g", 5, 1)
    assert a == turns.bot_command_id("g", 5, 1)
    assert a != turns.bot_command_id("g", 6, 1) != turns.bot_command_id("g", 5, 0)


@pytest.mark.parametrize("ruleset", ["kingdoms", "kingdom-builder", "kingdom-cards"])
def test_all_bot_game_ends_inline_without_recursion(make_user, ruleset):
    import sys

    from games.rules import get_ruleset

    rules = get_ruleset(ruleset)
    user = make_user()
    game = game_with_bots(
        user,
        ruleset=ruleset,
        bots=rules.seat_range(rules.clean_options({}))[1],
        join=False,
        level="medium",
    )
    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(400)  # a recursive runner would blow through this
    try:
        services.game_start(game_id=game.id, user=user)
    finally:
        sys.setrecursionlimit(limit)
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED
    in_this_thread = runners.runner()
    assert isinstance(in_this_thread, runners.InThisThread)
    assert not in_this_thread.running and not in_this_thread.pending


def searching_game(
    user,
    seconds: float | None,
    level: str = "hard",
    ruleset: str = "kingdoms",
    options: dict | None = None,
) -> Game:
    """A started two-seat table of two bots at a searching ``level``."""
    game = services.table_create(
        user=user,
        ruleset=ruleset,
        seats=2,
        options=options or {},
        join=False,
        bot_think_seconds=seconds,
    )
    for _ in range(2):
        services.bot_add(game_id=game.id, user=user, level=level)
    services.game_start(game_id=game.id, user=user)
    game.refresh_from_db()
    return game


@pytest.mark.parametrize("level", SEARCHING)
def test_the_table_s_thinking_time_is_the_search_budget(make_user, settings, monkeypatch, level):
    settings.BOT_RUNNER = "none"
    seen = []

    def strategy_for(key, asked):
        def spy(ruleset, state, seat, rng):
            seen.append((asked, current_budget().seconds))
            return ruleset.legal_commands(state, seat)[0]

        return spy

    monkeypatch.setattr(turns, "get_strategy", strategy_for)
    user = make_user()
    for seconds, expected in ((0.3, 0.3), (None, settings.BOT_THINK_SECONDS)):
        game = searching_game(user, seconds, level)
        ((seat, _level),) = turns.bot_seats_to_act(game)
        assert turns.take_turn(game.id, seat, game.head_seq) is True
        assert seen[-1] == (level, expected)


def test_a_bot_move_logs_how_long_its_choice_took(make_user, settings, monkeypatch, caplog):
    """``bench bots`` reads these lines for the worker's decision times."""
    settings.BOT_RUNNER = "none"

    def strategy_for(key, asked):
        def slow(ruleset, state, seat, rng):
            time.sleep(0.05)
            return ruleset.legal_commands(state, seat)[0]

        return slow

    monkeypatch.setattr(turns, "get_strategy", strategy_for)
    game = searching_game(make_user(), 0.3, "expert")
    ((seat, _level),) = turns.bot_seats_to_act(game)
    with caplog.at_level("INFO", logger="kingdom.bots"):
        assert turns.take_turn(game.id, seat, game.head_seq) is True
    (line,) = [r for r in caplog.records if r.getMessage() == "bot move chosen"]
    assert (line.game_id, line.level, line.think_seconds) == (str(game.id), "expert", 0.3)
    assert 0.05 <= line.seconds < 5


GAMES = {
    "kingdoms": {},
    "kingdom-builder": {},
    "kingdom-cards": {"allow_two_players": True},
}


@pytest.mark.parametrize("ruleset", sorted(GAMES))
@pytest.mark.parametrize("level", SEARCHING)
def test_a_searching_bot_plays_its_turn_once_within_the_table_s_thinking_time(
    make_user, settings, monkeypatch, level, ruleset
):
    # The level's own search (not a stand-in), as a table's bot turn runs it: the turn
    # ends within the table's thinking time and its redelivery plays nothing.
    settings.BOT_RUNNER = "none"
    asked = []

    def strategy_for(key, asked_level):
        real = get_strategy(key, asked_level)

        def play(ruleset, state, seat, rng):
            asked.append((key, asked_level, current_budget().seconds))
            started = time.monotonic()
            command = real(ruleset, state, seat, rng)
            asked.append(time.monotonic() - started)
            return command

        return play

    monkeypatch.setattr(turns, "get_strategy", strategy_for)
    game = searching_game(make_user(), 0.1, level, ruleset, GAMES[ruleset])
    head = game.head_seq
    to_act = turns.bot_seats_to_act(game)  # Kingdom Cards' seats may act at once
    assert {acting for _seat, acting in to_act} == {level}
    seat = to_act[0][0]
    assert turns.take_turn(game.id, seat, head) is True
    (key, played_level, budget), took = asked
    assert (key, played_level, budget) == (ruleset, level, 0.1)
    assert took < 0.1 + 1.0  # the search stops itself at its budget (slack: a loaded CI)
    game.refresh_from_db()
    after = game.head_seq
    assert after > head
    recorded = GameEvent.objects.filter(
        game=game, command_id=turns.bot_command_id(game.id, head, seat)
    )
    assert recorded.exists() and {e.actor for e in recorded} == {f"bot:{seat}"}
    # Redelivered (acks_late after a worker crash): the seq moved on, so a no-op.
    assert turns.take_turn(game.id, seat, head) is False
    game.refresh_from_db()
    assert game.head_seq == after and len(asked) == 2


@pytest.mark.parametrize("level", SEARCHING)
def test_a_turn_past_the_soft_time_limit_is_played_by_the_medium_bot(
    make_user, settings, monkeypatch, level
):
    settings.BOT_RUNNER = "none"
    levels = []

    def strategy_for(key, asked):
        levels.append(asked)
        real = get_strategy(key, "medium")

        def play(ruleset, state, seat, rng):
            if asked == level:
                raise SoftTimeLimitExceeded()
            return real(ruleset, state, seat, rng)

        return play

    monkeypatch.setattr(turns, "get_strategy", strategy_for)
    game = searching_game(make_user(), 0.2, level)
    head = game.head_seq
    ((seat, _level),) = turns.bot_seats_to_act(game)
    assert turns.take_turn(game.id, seat, head) is True
    assert levels == [level, "medium"]
    game.refresh_from_db()
    assert game.head_seq > head


@pytest.mark.parametrize("level", SEARCHING)
def test_celery_limits_follow_the_table_s_thinking_time(make_user, settings, monkeypatch, level):
    settings.BOT_RUNNER = "none"
    game = searching_game(make_user(), 2.0, level)
    limits = runners.task_time_limits(game)
    assert limits == {
        "soft_time_limit": 2.0 + runners.SOFT_LIMIT_SLACK,
        "time_limit": 2.0 + runners.HARD_LIMIT_SLACK,
    }
    sent = []
    from bots import tasks

    monkeypatch.setattr(tasks.take_turn, "apply_async", lambda **kw: sent.append(kw))
    settings.BOT_RUNNER = "celery"
    scheduling.send(game, scheduling.jobs_of(game))
    ((seat, _level),) = turns.bot_seats_to_act(game)
    assert sent == [
        {"args": (str(game.id), seat, game.head_seq), "queue": settings.BOT_QUEUE, **limits}
    ]


def test_the_bot_task_is_acked_late_requeued_if_its_worker_dies_and_time_limited(
    make_user, settings
):
    from bots import tasks
    from kingdom.celery import app

    settings.BOT_RUNNER = "none"
    # Acked only once played, and put back on the queue if its worker process dies.
    assert tasks.take_turn.acks_late is True
    assert tasks.take_turn.reject_on_worker_lost is True
    assert app.conf.worker_prefetch_multiplier == 1
    assert app.conf.task_routes["bots.tasks.*"] == {"queue": settings.BOT_QUEUE}
    # The soft limit leaves the search its whole budget and then some; the hard one
    # comes later still. The outbox leases the turn for the thinking time and more, and
    # a worker killed whole gives its message back well after (the visibility timeout).
    game = searching_game(make_user(), 10.0)
    limits = runners.task_time_limits(game)
    assert 10.0 < limits["soft_time_limit"] < limits["time_limit"]
    assert scheduling.lease_seconds(10.0, 0) > 10.0
    visibility = settings.CELERY_BROKER_TRANSPORT_OPTIONS["visibility_timeout"]
    assert visibility > limits["time_limit"]
