"""Clocks: server-kept time controls, the sweep's timeouts, skip and expel — all events in
the log that re-execution at the recorded times reproduces."""

from __future__ import annotations

import threading
from datetime import timedelta

import pytest
from django.db import connections

from audit.exports import export_game, verify_export
from audit.stored import audit_game
from bots import tasks
from games import clocks, selectors, services, storage
from games.errors import ServiceError
from games.models import Game, GameEvent
from games.rules import get_ruleset
from tests.conftest import ON_POSTGRES, needs_postgres
from tests.games.helpers import humans_game, play_out, to_act

pytestmark = pytest.mark.django_db(transaction=True)
BLITZ = {"kind": "realtime", "minutes": 5, "increment_seconds": 10}


@pytest.fixture
def players(make_user):
    return [make_user("ana"), make_user("bob"), make_user("cy")]


def clock_view(game: Game) -> dict:
    game.refresh_from_db()
    return selectors.game_view(game, None)["state"]["clock"]


def seat_to_act(game: Game) -> int:
    (seat,) = to_act(game)
    return seat


def user_at(game: Game, seat: int):
    return game.seats.get(number=seat).user


def timeouts(game: Game) -> list[GameEvent]:
    return list(GameEvent.objects.filter(game=game, type="clock_expired"))


# ---- time controls ------------------------------------------------------------------
@pytest.mark.parametrize(
    "control",
    [
        {"kind": "sudden"},
        {"kind": "realtime", "minutes": 0},
        {"kind": "realtime", "minutes": "5"},
        {"kind": "realtime", "minutes": 5, "increment_seconds": 9999},
        {"kind": "turn", "hours": 0},
        {"kind": "turn", "hours": 24, "minutes": 3},
        "blitz",
    ],
)
def test_bad_time_controls_are_refused(make_user, control):
    with pytest.raises(ServiceError) as err:
        services.table_create(user=make_user(), ruleset="kingdoms", seats=2, time_control=control)
    assert err.value.code == "bad_time_control" and err.value.status == 400


def test_time_control_defaults_and_shows_in_the_table_summary(make_user):
    user = make_user()
    friendly = services.table_create(user=user, ruleset="kingdoms", seats=2)
    assert selectors.table_summary(friendly)["time_control"] == {"kind": "none"}
    timed = services.table_create(
        user=user, ruleset="kingdoms", seats=2, time_control={"kind": "realtime"}
    )
    assert selectors.table_summary(timed)["time_control"] == {
        "kind": "realtime",
        "minutes": 10,
        "increment_seconds": 5,
    }


def test_untimed_games_record_no_clock_events(players):
    game = humans_game(players[:2])
    play_out(game, players[:2], moves=6)
    assert not GameEvent.objects.filter(game=game, type__startswith="clock").exists()
    assert "time_control" not in GameEvent.objects.get(game=game, seq=1).public
    assert Game.objects.get(pk=game.id).clock_deadline is None


# ---- the clocks run for the seat to act -----------------------------------------------
def test_only_the_clock_of_the_seat_to_act_runs(players, clock):
    game = humans_game(players[:2], time_control=BLITZ)
    first = seat_to_act(game)
    state = clock_view(game)
    assert state["running"] == {str(first): clocks.ms_of(clock.now)}
    assert state["banks"] == {"0": 300_000, "1": 300_000}
    assert state["deadlines"][str(first)] == clocks.ms_of(clock.now) + 300_000
    deadline = clocks.moment_of(clocks.ms_of(clock.now) + 300_000)  # whole milliseconds
    assert Game.objects.get(pk=game.id).clock_deadline == deadline


def test_kingdom_cards_runs_only_the_clock_of_the_seat_the_game_waits_for(players, clock):
    """Bystanders may change their kingdoms meanwhile (they are in to_act) but the game
    does not wait for them, so their clocks stay stopped."""
    game = humans_game(players, ruleset="kingdom-cards", time_control=BLITZ)
    with storage.reading(game) as table:
        awaited = get_ruleset("kingdom-cards").awaited(table.rules)
    assert len(awaited) == 1 and len(to_act(game)) > 1
    assert set(clock_view(game)["running"]) == {str(s) for s in awaited}


def test_a_move_charges_the_time_used_and_adds_the_increment(players, clock):
    game = humans_game(players[:2], time_control=BLITZ)
    first = seat_to_act(game)
    clock.advance(seconds=42)
    play_out(game, players[:2], moves=1)
    state = clock_view(game)
    assert state["banks"][str(first)] == 300_000 - 42_000 + 10_000
    assert str(first) not in state["running"]
    assert state["running"] == {str(1 - first): clocks.ms_of(clock.now)}
    pressed = GameEvent.objects.filter(game=game, type="clock_pressed").last()
    assert pressed.public["at"] == clocks.ms_of(clock.now)


def test_turn_based_clock_gives_each_turn_its_hours(players, clock):
    game = humans_game(players[:2], time_control={"kind": "turn", "hours": 24})
    first = seat_to_act(game)
    assert clock_view(game)["deadlines"][str(first)] == clocks.ms_of(clock.now) + 86_400_000
    clock.advance(hours=23)
    assert services.clock_sweep() == 0
    play_out(game, players[:2], moves=1)
    clock.advance(hours=23)
    assert services.clock_sweep() == 0
    clock.advance(hours=1)
    assert services.clock_sweep() == 1
    assert timeouts(game)[0].public["seat"] == 1 - first


# ---- timeouts --------------------------------------------------------------------------
def test_clock_expiry_records_exactly_one_timeout(players, clock):
    game = humans_game(players[:2], time_control=BLITZ)
    late = seat_to_act(game)
    clock.advance(minutes=4, seconds=59)
    assert services.clock_sweep() == 0
    clock.advance(seconds=1)
    assert services.clock_sweep() == 1
    assert services.clock_sweep() == 0  # a second sweep finds the seat already out of time
    (event,) = timeouts(game)
    assert event.public == {"seat": late, "at": clocks.ms_of(clock.now)}
    assert event.actor == "system"
    state = clock_view(game)
    assert state["timed_out"] == [late] and state["running"] == {}
    assert Game.objects.get(pk=game.id).clock_deadline is None


def race(sweepers: int, now) -> list:
    results: list = []
    start = threading.Barrier(sweepers)

    def sweep() -> None:
        try:
            start.wait()
            results.append(services.clock_sweep(now=now))
        except Exception as exc:  # noqa: BLE001 - reported below
            results.append(exc)
        finally:
            connections.close_all()

    threads = [threading.Thread(target=sweep) for _ in range(sweepers)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return results


@pytest.mark.skipif(
    not ON_POSTGRES,
    reason="SQLite's shared in-memory test database refuses concurrent writers outright; "
    "test_clocks_sqlite.py races on a SQLite file instead",
)
def test_two_sweepers_racing_record_exactly_one_timeout(players, clock):
    game = humans_game(players[:2], time_control=BLITZ)
    results = race(2, clock.now + timedelta(minutes=6))
    assert sorted(results) == [0, 1], results
    assert len(timeouts(game)) == 1


@pytest.mark.skipif(not ON_POSTGRES, reason="needs concurrent writers (PostgreSQL)")
def test_many_sweepers_racing_over_many_games_record_one_timeout_each(make_user, clock):
    games = []
    for n in range(4):
        pair = [make_user(f"a{n}"), make_user(f"b{n}")]
        games.append(humans_game(pair, time_control=BLITZ))
    results = race(6, clock.now + timedelta(minutes=6))
    assert sum(results) == 4, results
    assert [len(timeouts(g)) for g in games] == [1, 1, 1, 1]


def test_sweeping_the_same_game_twice_in_a_row_at_the_same_instant(players, clock):
    """What a losing racer sees once it gets the lock (runs on SQLite too)."""
    game = humans_game(players[:2], time_control=BLITZ)
    later = clock.now + timedelta(minutes=6)
    first = services.game_timeouts(game_id=game.id, now=later)
    second = services.game_timeouts(game_id=game.id, now=later)
    assert [e.type for e in first] == ["clock_expired", "clock_pressed"] and second == []


def test_a_move_after_the_clock_ran_out_is_refused_and_times_out(players, clock):
    game = humans_game(players[:2], time_control=BLITZ)
    late = seat_to_act(game)
    clock.advance(minutes=5, seconds=1)
    legal = selectors.legal_commands(game, late)
    with pytest.raises(ServiceError) as err:
        services.game_submit(game_id=game.id, user=user_at(game, late), command=legal[0])
    assert err.value.code == "out_of_time"
    assert len(timeouts(game)) == 1
    # Out of time, the player may still move (until expelled): back in the game with the
    # increment as their whole bank.
    services.game_submit(game_id=game.id, user=user_at(game, late), command=legal[0])
    state = clock_view(game)
    assert state["timed_out"] == []
    assert state["banks"][str(late)] == 10_000


def test_celery_beat_task_runs_the_sweep(players, clock):
    game = humans_game(players[:2], time_control=BLITZ)
    clock.advance(minutes=6)
    assert tasks.sweep_clocks.apply().get() == 1
    assert len(timeouts(game)) == 1


def test_celery_beat_task_seats_a_quick_match_whose_wait_is_over(players, clock):
    (ana,) = players[:1]
    services.quick_match_join(user=ana, ruleset="kingdoms", seats=2, bots_after=30)
    clock.advance(seconds=31)
    tasks.sweep_clocks.apply().get()
    game = Game.objects.get()
    assert game.status == Game.Status.ACTIVE
    assert services.quick_match_state(user=ana) == {"status": "matched", "table": str(game.id)}


def test_the_sweep_command_records_timeouts(players, clock, capsys):
    from django.core.management import call_command

    humans_game(players[:2], time_control=BLITZ)
    clock.advance(minutes=6)
    call_command("sweep_clocks")
    assert "1 timeout event(s) recorded" in capsys.readouterr().out


# ---- skip and expel -----------------------------------------------------------------
def timed_out_three(players, clock) -> tuple[Game, int, list]:
    game = humans_game(players, time_control=BLITZ)
    late = seat_to_act(game)
    clock.advance(minutes=6)
    services.clock_sweep()
    others = [u for u in players if u != user_at(game, late)]
    return game, late, others


def test_skip_needs_a_player_out_of_time_and_another_player(players, clock, make_user):
    game = humans_game(players, time_control=BLITZ)
    late = seat_to_act(game)
    other = next(u for u in players if u != user_at(game, late))
    with pytest.raises(ServiceError) as err:
        services.game_skip(game_id=game.id, user=other, seat=late)
    assert err.value.code == "not_out_of_time"
    clock.advance(minutes=6)
    services.clock_sweep()
    with pytest.raises(ServiceError) as err:
        services.game_skip(game_id=game.id, user=user_at(game, late), seat=late)
    assert err.value.code == "own_seat"
    with pytest.raises(ServiceError) as err:
        services.game_expel(game_id=game.id, user=make_user("watcher"), seat=late)
    assert err.value.code == "not_seated" and err.value.status == 403


def test_skip_lets_a_bot_play_the_turn_then_waits_again(players, clock):
    game, late, others = timed_out_three(players, clock)
    head = Game.objects.get(pk=game.id).head_seq
    services.game_skip(game_id=game.id, user=others[0], seat=late)
    rows = list(GameEvent.objects.filter(game=game, seq__gt=head).order_by("seq"))
    assert rows[0].type == "turn_skipped" and rows[0].actor.startswith("seat:")
    assert any(r.actor == f"bot:{late}" for r in rows), "a bot played the skipped turn"
    assert late not in to_act(game)
    seat = game.seats.get(number=late)
    assert not seat.departed and not seat.bot_level, "the seat is still the player's"
    view = selectors.game_view(Game.objects.get(pk=game.id), None)["state"]
    assert view["skipping"] == [] and view["clock"]["timed_out"] == [late]


def test_expel_hands_the_seat_to_a_bot_which_finishes_the_game(players, clock):
    game, late, others = timed_out_three(players, clock)
    expelled_user = user_at(game, late)
    services.game_expel(game_id=game.id, user=others[0], seat=late)
    seat = game.seats.get(number=late)
    assert seat.expelled and seat.bot_level == services.TAKEOVER_LEVEL
    with pytest.raises(ServiceError) as err:
        services.game_submit(game_id=game.id, user=expelled_user, command={"type": "pass"})
    assert err.value.code == "seat_departed"
    game = play_out(game, others)
    assert game.status == Game.Status.FINISHED
    assert game.outcome["ranking"][-1] == [late], "the expelled player ranks last"
    assert not game.rating_changes.exists(), "a game with an expelled player is unrated"
    assert audit_game(game).passed, audit_game(game).problems


def test_expel_in_a_two_player_game_ends_it(players, clock):
    game = humans_game(players[:2], time_control=BLITZ)
    late = seat_to_act(game)
    clock.advance(minutes=6)
    services.clock_sweep()
    services.game_expel(game_id=game.id, user=user_at(game, 1 - late), seat=late)
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED
    assert game.outcome["ranking"] == [[1 - late], [late]]
    last = GameEvent.objects.filter(game=game).order_by("-seq").first()
    assert last.type == "result_declared" and last.public["by"] == "expulsion"


# ---- auditable ------------------------------------------------------------------------
def test_a_timed_game_with_timeouts_skips_and_expulsion_reexecutes(players, clock):
    game, late, others = timed_out_three(players, clock)
    services.game_skip(game_id=game.id, user=others[0], seat=late)
    clock.advance(seconds=30)
    play_out(game, others, moves=4)
    clock.advance(minutes=10)
    services.clock_sweep()
    game.refresh_from_db()
    services.game_expel(game_id=game.id, user=others[1], seat=late)
    game = play_out(game, others)
    assert game.status == Game.Status.FINISHED
    verdict = audit_game(game)
    assert verdict.passed and verdict.reexecution_matches, verdict.problems
    types = set(GameEvent.objects.filter(game=game).values_list("type", flat=True))
    assert {"clock_pressed", "clock_expired", "turn_skipped", "seat_expelled"} <= types


def test_a_timeout_recorded_before_the_clock_ran_out_fails_reexecution(players, clock):
    """Rewrite the export with an early timeout and a recomputed hash chain: the chain is
    intact, but re-running the timeout at its recorded time refuses it."""
    from games.storage.chain import GENESIS, record_hash

    game = humans_game(players[:2], time_control=BLITZ)
    late = seat_to_act(game)
    clock.advance(minutes=6)
    services.clock_sweep()
    services.game_expel(game_id=game.id, user=user_at(game, 1 - late), seat=late)
    document = export_game(Game.objects.get(pk=game.id))
    assert verify_export(document).passed
    forged = next(e for e in document["events"] if e["type"] == "clock_expired")
    early = clock.now - timedelta(minutes=3)
    forged["recorded_at"] = early.isoformat()
    forged["public"]["at"] = clocks.ms_of(early)
    prev = GENESIS
    for record in document["events"]:
        record["prev_hash"] = prev
        record["hash"] = prev = record_hash(record)
    verdict = verify_export(document)
    assert verdict.chain_intact and not verdict.passed
    assert f"event {forged['seq']} refused" in " ".join(verdict.problems)


# The ticker thread writes from another connection, which pytest's in-memory SQLite
# database refuses; tests/bots/test_clocks_sqlite.py covers SQLite with a real file.
@needs_postgres
def test_the_embedded_ticker_records_the_timeout(players, settings, clock):
    import time

    from bots import scheduling

    game = humans_game(players[:2], time_control=BLITZ)
    clock.advance(minutes=6)
    settings.BOT_RUNNER = "thread"
    settings.CLOCK_SWEEP_EVERY = 0.05
    try:
        scheduling.ticker_start()
        for _ in range(200):
            if timeouts(game):
                break
            time.sleep(0.05)
    finally:
        scheduling.ticker_stop()
    assert len(timeouts(game)) == 1
