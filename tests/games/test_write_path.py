"""The write path's cost and isolation (games/services/writing.py, play.py, store.py).

A move reads what it needs with the row lock in one statement, appends in one, moves the
head in one; nothing is read back and nothing is queried after the commit to find bot
turns. Two processes writing one game in turn never act on a stale state, and a command
that waited for the lock sees what the writer before it committed.
"""

from __future__ import annotations

import threading
import uuid
from typing import Any

import pytest
from django.db import connection, connections, transaction
from django.test.utils import CaptureQueriesContext

from bots import dispatch
from games import selectors, services, store
from games import table as tables
from games.chain import first_broken_link
from games.models import Game, GameEvent
from games.rules import get_ruleset
from games.services.own_heads import own_heads
from tests.conftest import needs_postgres
from tests.games.helpers import humans_game, to_act

pytestmark = pytest.mark.django_db(transaction=True)

# BEGIN, the locking read (row lock + seats + head hash + command_id), the INSERT of the
# events and the UPDATE of the game's row (one statement on PostgreSQL: the INSERT rides in
# the UPDATE's WITH clause), COMMIT. On PostgreSQL BEGIN and COMMIT travel with the two
# statements (two round trips: tests/games/test_round_trips.py). A move right after the
# process's own write skips the locking read on PostgreSQL (tests/games/test_own_heads.py).
QUERIES_PER_MOVE = 4 if connection.vendor == "postgresql" else 5
QUERIES_AFTER_OWN_WRITE = 3 if connection.vendor == "postgresql" else QUERIES_PER_MOVE


def mover_of(game: Game, users: list) -> tuple[int, Any]:
    (seat,) = to_act(game)
    return seat, game.seats.get(number=seat).user


def first_legal(game: Game, seat: int) -> dict[str, Any]:
    game.refresh_from_db()
    return selectors.legal_commands(game, seat)[0]


def submit_counting(game: Game, user, command: dict, own_head: bool = False, **extra) -> list[str]:
    """The statements of one move; unless ``own_head``, as if another process had written
    the head (the locked way, games/services/own_heads.py)."""
    if not own_head:
        own_heads.clear()
    with CaptureQueriesContext(connection) as queries:
        services.game_submit(game_id=game.id, user=user, command=command, **extra)
    # A connection prepares each of the write path's statements once in its life.
    return [q["sql"] for q in queries.captured_queries if "PREPARE kingdom_" not in q["sql"]]


@pytest.fixture
def sent_bot_turns(settings, monkeypatch) -> list:
    """Bot turns handed to the runner (which plays none of them)."""
    settings.BOT_RUNNER = "none"
    sent: list = []
    real = dispatch._send
    monkeypatch.setattr(dispatch, "_send", lambda game, jobs: sent.extend(jobs) or real(game, jobs))
    return sent


def test_a_move_at_a_table_without_bots_costs_the_write_paths_queries(make_user, sent_bot_turns):
    users = [make_user("ana"), make_user("bob")]
    game = humans_game(users)
    seat, mover = mover_of(game, users)
    sql = submit_counting(game, mover, first_legal(game, seat), command_id=uuid.uuid4())
    assert len(sql) == QUERIES_PER_MOVE, sql
    assert sent_bot_turns == []


def test_a_move_without_a_command_id_costs_the_same(make_user, sent_bot_turns):
    users = [make_user("ana"), make_user("bob")]
    game = humans_game(users)
    seat, mover = mover_of(game, users)
    assert len(submit_counting(game, mover, first_legal(game, seat))) == QUERIES_PER_MOVE


def test_a_move_that_hands_the_turn_to_a_bot_schedules_it_without_a_query(
    make_user, sent_bot_turns
):
    ana = make_user("ana")
    game = humans_game([ana], bots=1)
    human = game.seats.get(user=ana).number
    while to_act(game) != {human}:  # the bot opened: play its turns by hand
        ((bot, _),) = [(s, lvl) for s, lvl in dispatch.turns.bot_seats_to_act(game)]
        services.game_submit(game_id=game.id, bot_seat=bot, command=first_legal(game, bot))
    sent_bot_turns.clear()
    sql = submit_counting(game, ana, first_legal(game, human), command_id=uuid.uuid4())
    assert len(sql) == QUERIES_PER_MOVE, sql
    game.refresh_from_db()
    bot = 1 - human
    assert to_act(game) == {bot}
    assert sent_bot_turns == [(str(game.id), bot, game.head_seq)]


def test_a_retried_command_id_is_answered_from_the_log(make_user, sent_bot_turns):
    users = [make_user("ana"), make_user("bob")]
    game = humans_game(users)
    seat, mover = mover_of(game, users)
    command, command_id = first_legal(game, seat), uuid.uuid4()
    first = services.game_submit(
        game_id=game.id, user=mover, command=command, command_id=command_id
    )
    again = services.game_submit(
        game_id=game.id, user=mover, command=command, command_id=command_id
    )
    assert again.replayed and [e.seq for e in again.events] == [e.seq for e in first.events]
    assert GameEvent.objects.filter(game=game).count() == first.head_seq


# ---- several processes: each with its own connection and its own state cache ----------
class _CachePerThread:
    """A state cache per thread: each thread stands for a server process."""

    def __init__(self) -> None:
        self._local = threading.local()

    def _cache(self) -> store._StateCache:
        if not hasattr(self._local, "cache"):
            self._local.cache = store._StateCache(store.CACHE_SIZE)
        return self._local.cache

    def take(self, game_id, seq):
        return self._cache().take(game_id, seq)

    def take_behind(self, game_id, seq):
        return self._cache().take_behind(game_id, seq)

    def held_seq(self, game_id):
        return self._cache().held_seq(game_id)

    def put(self, game_id, seq, table) -> None:
        self._cache().put(game_id, seq, table)

    def clear(self) -> None:
        self._cache().clear()


def _replayed_truth(game: Game) -> tuple[dict, dict]:
    """Each seat's (and a spectator's) view and legal commands from a full replay."""
    rules = get_ruleset(game.ruleset)
    table = store.replay(game)
    seats = [*range(table.players), None]
    views = {s: tables.view(rules, table, s) for s in seats}
    legal = {s: rules.legal_commands(table.rules, s) for s in seats[:-1]}
    return views, legal


def _served(game: Game) -> tuple[dict, dict]:
    """What this process serves: views and legal commands from its own cached state."""
    rules = get_ruleset(game.ruleset)
    with store.reading(game) as table:
        seats = [*range(table.players), None]
        views = {s: tables.view(rules, table, s) for s in seats}
        legal = {s: rules.legal_commands(table.rules, s) for s in seats[:-1]}
    return views, legal


@needs_postgres
@pytest.mark.parametrize("read_before_moving", [True, False], ids=["read first", "move at once"])
def test_two_processes_alternating_moves_never_serve_a_stale_state(
    make_user, monkeypatch, settings, read_before_moving
):
    """Two writers (own connection, own state cache) take turns moving one game; after
    each move both serve exactly what a full replay of the log gives. A writer that moves
    at once holds its state one move behind: the locking read brings it the move."""
    settings.BOT_RUNNER = "none"
    settings.SNAPSHOT_EVERY = 7  # loads from a snapshot plus a tail happen too
    monkeypatch.setattr(store, "state_cache", _CachePerThread())
    users = [make_user("ana"), make_user("bob")]
    game = humans_game(users)
    by_seat = {s.number: s.user for s in game.seats.all()}
    turn = [threading.Semaphore(1), threading.Semaphore(0)]
    mismatches: list[str] = []
    moves_made = [0, 0]
    moves = 24
    next_move: list[tuple[int, dict]] = []  # the next seat to act and its first legal move

    def writer(me: int) -> None:
        try:
            for _ in range(moves // 2):
                turn[me].acquire()
                try:
                    here = Game.objects.get(pk=game.id)
                    if here.status != Game.Status.ACTIVE:
                        return
                    if read_before_moving or not next_move:
                        # Before moving: this process's state is the log's, at the new head.
                        if _served(here) != _replayed_truth(here):
                            mismatches.append(f"writer {me} before its move at {here.head_seq}")
                        (seat,) = to_act(here)
                        command = first_legal(here, seat)
                    else:  # the move the other process found: this one has read nothing
                        seat, command = next_move[0]
                    services.game_submit(
                        game_id=here.id,
                        user=by_seat[seat],
                        command=command,
                        expected_seq=here.head_seq,
                    )
                    moves_made[me] += 1
                    here.refresh_from_db()
                    if _served(here) != _replayed_truth(here):
                        mismatches.append(f"writer {me} after its move at {here.head_seq}")
                    if here.status == Game.Status.ACTIVE:
                        (seat,) = to_act(here)
                        next_move[:] = [(seat, first_legal(here, seat))]
                finally:
                    turn[1 - me].release()
        finally:
            connections.close_all()

    # Daemon threads: a writer left waiting for a turn that never comes (the other one
    # failed) must not keep the test run from ending.
    threads = [threading.Thread(target=writer, args=(me,), daemon=True) for me in (0, 1)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=120)
    assert mismatches == []
    assert moves_made == [moves // 2, moves // 2]
    records = [store.record_of(r) for r in GameEvent.objects.filter(game=game).order_by("seq")]
    assert first_broken_link(records) is None


def _wait_until_blocked_on_a_lock(timeout: float = 10.0) -> None:
    """Until another session of this database waits for a row lock (or ``timeout``)."""
    import time

    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        with connection.cursor() as cursor:
            cursor.execute(
                "SELECT count(*) FROM pg_stat_activity "
                "WHERE datname = current_database() AND wait_event_type = 'Lock'"
            )
            if cursor.fetchone()[0]:
                return
        time.sleep(0.02)


def _behind_a_held_lock(game: Game, first: dict, second: dict) -> tuple[Any, Any]:
    """Run ``first`` (game_submit kwargs) in a transaction that stays open until
    ``second`` is waiting for the game's lock; returns (first's result, second's)."""
    first_done, results = threading.Event(), {}

    def holder() -> None:
        try:
            with transaction.atomic():
                results["first"] = services.game_submit(game_id=game.id, **first)
                first_done.set()
                _wait_until_blocked_on_a_lock()
        finally:
            first_done.set()
            connections.close_all()

    def waiter() -> None:
        first_done.wait(30)
        try:
            results["second"] = services.game_submit(game_id=game.id, **second)
        except Exception as exc:  # the assertion below names it
            results["second"] = exc
        finally:
            connections.close_all()

    threads = [threading.Thread(target=t, daemon=True) for t in (holder, waiter)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    return results["first"], results["second"]


@needs_postgres
def test_a_retry_that_waited_for_the_lock_behind_its_first_delivery_is_replayed(
    make_user, settings
):
    """The waiting statement's snapshot predates the first delivery's commit; the read
    is repeated under the lock, so the retry finds the recorded command_id."""
    settings.BOT_RUNNER = "none"
    users = [make_user("ana"), make_user("bob")]
    game = humans_game(users)
    seat, mover = mover_of(game, users)
    delivery = {"user": mover, "command": first_legal(game, seat), "command_id": uuid.uuid4()}
    first, retry = _behind_a_held_lock(game, delivery, delivery)
    assert not isinstance(retry, Exception), retry
    assert retry.replayed and [e.seq for e in retry.events] == [e.seq for e in first.events]
    assert GameEvent.objects.filter(game=game).count() == first.head_seq


@needs_postgres
def test_a_move_that_waited_for_the_lock_appends_after_the_move_it_waited_for(make_user, settings):
    users = [make_user("ana"), make_user("bob")]
    settings.BOT_RUNNER = "none"
    game = humans_game(users)
    seat, mover = mover_of(game, users)
    other_seat = 1 - seat
    other = game.seats.get(number=other_seat).user
    # The other player's answer is legal once the first move is in (Kingdoms alternates).
    command = first_legal(game, seat)
    first, second = _behind_a_held_lock(
        game,
        {"user": mover, "command": command},
        {"user": other, "command": _answer_after(game, seat, command, other_seat)},
    )
    assert not isinstance(second, Exception), second
    assert second.events[0].seq == first.head_seq + 1
    records = [store.record_of(r) for r in GameEvent.objects.filter(game=game).order_by("seq")]
    assert first_broken_link(records) is None
    game.refresh_from_db()
    assert _served(game) == _replayed_truth(game)


def _answer_after(game: Game, seat: int, command: dict, other_seat: int) -> dict:
    """The other seat's first legal command once ``command`` is played (on a copy)."""
    rules = get_ruleset(game.ruleset)
    table = store.replay(game)
    tables.command_events(rules, table, game.seed, game.head_seq, seat, command, now_ms=0)
    return rules.legal_commands(table.rules, other_seat)[0]


def post_counting(game: Game, user, command: dict) -> tuple[Any, list[str]]:
    from rest_framework.test import APIClient

    client = APIClient()
    client.force_authenticate(user)
    body = {"command": command, "command_id": str(uuid.uuid4()), "expected_seq": game.head_seq}
    with CaptureQueriesContext(connection) as queries:
        answer = client.post(f"/api/tables/{game.id}/commands/", body, format="json")
    return answer, [q["sql"] for q in queries.captured_queries]


def test_a_posted_move_is_answered_from_what_the_write_locked(make_user, sent_bot_turns):
    # The answer's events, redacted for the poster, come from the row and seats the write
    # read under its lock (or kept from the process's own write before it); the seat names
    # from a cache keyed by the seats: the second move of a game costs the write path's
    # queries and not one more.
    users = [make_user("ana"), make_user("bob")]
    game = humans_game(users)
    for move in range(2):
        seat, mover = mover_of(game, users)
        answer, sql = post_counting(game, mover, first_legal(game, seat))
        assert answer.status_code == 201, answer.json()
        if move == 1:
            assert len(sql) == QUERIES_AFTER_OWN_WRITE, sql
    game.refresh_from_db()
    expected = selectors.events_after(game, seat, game.head_seq - len(answer.json()["events"]))
    assert answer.json()["events"] == expected
    assert answer.json()["head_seq"] == game.head_seq


# ---- a process whose state is behind: the events another process wrote -----------------
def _two_moves_then_held_behind(users: list) -> tuple[Game, int, tuple[Any, dict]]:
    """A game two moves on, this process holding its state as of the first (the second
    was written by another process); and the next move, found before the state is held."""
    game = humans_game(users)
    heads = []
    for _ in range(2):
        seat, mover = mover_of(game, users)
        services.game_submit(game_id=game.id, user=mover, command=first_legal(game, seat))
        game.refresh_from_db()
        heads.append(game.head_seq)
    behind = heads[0]
    seat, mover = mover_of(game, users)
    command = first_legal(game, seat)  # reads (and brings up) the held state: before
    store.state_cache.clear()
    store.state_cache.put(game.id, behind, store.replay(game, upto=behind))
    return game, behind, (mover, command)


@needs_postgres
def test_a_move_in_a_process_whose_state_is_behind_reads_the_missing_events_with_the_lock(
    make_user, sent_bot_turns
):
    users = [make_user("ana"), make_user("bob")]
    game, behind, (mover, command) = _two_moves_then_held_behind(users)
    assert store.state_cache.held_seq(game.id) == behind < game.head_seq
    sql = submit_counting(game, mover, command, command_id=uuid.uuid4())
    assert len(sql) == QUERIES_PER_MOVE, sql  # no read of the events of its own
    game.refresh_from_db()
    assert _served(game) == _replayed_truth(game)


def test_caught_up_events_that_do_not_start_at_the_held_state_are_read_again(
    make_user, sent_bot_turns
):
    """The state held may change between the locking read and the load (another thread
    of the process wrote): events that do not fit it are not folded into it."""
    users = [make_user("ana"), make_user("bob")]
    game, behind, _ = _two_moves_then_held_behind(users)
    game.refresh_from_db()
    wrong = store.CaughtUp(after=behind - 1, events=[])
    table = store.load_table(game, wrong)
    rules = get_ruleset(game.ruleset)
    truth = store.replay(game)
    assert [tables.view(rules, table, s) for s in (0, 1, None)] == [
        tables.view(rules, truth, s) for s in (0, 1, None)
    ]


def test_caught_up_events_come_as_the_database_gives_them():
    public, private = {"tile": 3}, {"0": {"drawn": [1]}}
    caught_up = store.CaughtUp.from_json(5, [["tile_drawn", public, private]])
    assert caught_up.after == 5 and caught_up.upto(5, 6) and not caught_up.upto(4, 6)
    (event,) = caught_up.events
    assert (event.type, event.public, event.private) == (
        "tile_drawn",
        public,
        {0: {"drawn": [1]}},
    )
    assert store.CaughtUp.from_json(7, None).events == []  # nothing after the held seq
