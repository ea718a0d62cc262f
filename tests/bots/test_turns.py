"""Bot turns: idempotent delivery, stale tasks, all-bot games in-process."""

from __future__ import annotations

import pytest

from bots import turns
from bots.dispatch import _inline
from games import services
from games.models import Game, GameEvent
from tests.games.helpers import table_with_bots

pytestmark = pytest.mark.django_db(transaction=True)


def test_the_same_task_delivered_twice_appends_one_command(make_user, settings):
    settings.BOT_RUNNER = "none"
    user = make_user()
    game = table_with_bots(user, bots=2, join=False, level="easy")
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
    game = table_with_bots(user, bots=2, join=False, level="easy")
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
    game = table_with_bots(
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
    assert not _inline.running and not _inline.pending
