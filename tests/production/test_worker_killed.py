"""A Celery worker killed (SIGKILL, pool and all) in the middle of a hard bot's turn."""

from __future__ import annotations

import json
import random
import time

from bots.turns import bot_command_id
from games.models import Game, GameEvent
from tests.production.helpers import (
    PRODUCTION,
    assert_audit_passes,
    assert_log_is_sound,
    open_table,
    play_randomly,
    seat_of,
)
from tests.production.processes import wait_until

pytestmark = PRODUCTION
KILLED_TURN_THINKS = 3.0  # seconds: long enough to kill the worker inside the search
REPLAY_SECONDS = 45
ATTEMPTS = 5
REST_THINKS = 0.1  # the least a table may set: the rest of the game goes quickly


def turn_in_progress(redis, game_id: str, seat: int, seq: int) -> bool:
    """Whether a worker holds this turn's take_turn unacknowledged (kombu's ``unacked``
    hash): with prefetch 1 on an idle worker, a task held is a task running."""
    wanted = repr((str(game_id), seat, seq))
    for raw in redis.hvals("unacked"):
        headers = json.loads(raw)[0]["headers"]
        if headers.get("task") == "bots.tasks.take_turn" and headers.get("argsrepr") == wanted:
            return True
    return False


def kill_worker_mid_turn(cluster, game_id, ana, rng) -> tuple[int, int]:
    """Kill the worker while it plays a bot turn; returns (seq before the turn, bot seat).
    A search may settle early, so a turn that ended before the kill is passed over."""
    a, b = cluster.urls
    ana_seat = seat_of(game_id, ana.user)
    redis, bot_seat = cluster.redis.client(), 1 - ana_seat
    for _attempt in range(ATTEMPTS):
        while ana.http(a).get(f"/api/tables/{game_id}/legal/")["commands"]:
            play_randomly(game_id, {ana_seat: ana}, [a, b], rng, moves=1)
        head = Game.objects.get(pk=game_id).head_seq
        wait_until(
            lambda h=head: turn_in_progress(redis, game_id, bot_seat, h)
            or Game.objects.get(pk=game_id).head_seq != h,
            "the worker to take the bot's turn",
            15,
        )
        time.sleep(0.3)  # inside the search
        cluster.processes["worker"].kill()
        if Game.objects.get(pk=game_id).head_seq == head:
            assert turn_in_progress(redis, game_id, bot_seat, head), "the turn was acked"
            return head, bot_seat
        cluster.start_process("worker")
    raise AssertionError(f"no bot turn outlasted 0.3 s in {ATTEMPTS} attempts")


def test_a_turn_whose_worker_is_killed_is_played_once_by_a_new_worker(cluster, player):
    a, b = cluster.urls
    ana = player("ana")
    game_id = open_table(ana.http(a), seats=2, bot_think_seconds=KILLED_TURN_THINKS)
    ana.http(b).post(f"/api/tables/{game_id}/bots/", {"level": "hard"}, expect=201)
    ana.http(a).post(f"/api/tables/{game_id}/start/")
    rng = random.Random(4)
    head, bot_seat = kill_worker_mid_turn(cluster, game_id, ana, rng)

    # The rest of the game at the usual pace; the killed turn is played by a new worker.
    Game.objects.filter(pk=game_id).update(bot_think_seconds=REST_THINKS)
    cluster.start_process("worker")
    command_id = bot_command_id(game_id, head, bot_seat)
    wait_until(
        lambda: GameEvent.objects.filter(game_id=game_id, command_id=command_id).exists(),
        f"the killed turn (seq {head}, bot seat {bot_seat}) to be played\n{cluster.logs()}",
        REPLAY_SECONDS,
        step=0.2,
    )

    play_randomly(game_id, {seat_of(game_id, ana.user): ana}, [a, b], rng)
    assert Game.objects.get(pk=game_id).status == Game.Status.FINISHED
    assert GameEvent.objects.filter(game_id=game_id, command_id=command_id).count() == 1
    assert_log_is_sound(game_id)
    assert_audit_passes(game_id)
