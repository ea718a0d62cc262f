"""The write path's cost and isolation (games/services/writing.py, play.py, storage/).

A move at a game this process holds is decided on the held head and recorded by one
statement (two on SQLite), however long the game, with nothing queried after it to find
bot turns. Two processes writing one game in turn never act on a stale state, and a
command that raced a write still in its transaction decides again on what it committed.
"""

from __future__ import annotations

import threading
import uuid
from typing import Any

import pytest
from django.db import connection, connections, transaction
from django.test.utils import CaptureQueriesContext

from bots import scheduling, turns
from games import selectors, services, storage
from games import table as tables
from games.errors import ServiceError
from games.models import Game, GameEvent
from games.rules import get_ruleset
from games.storage.chain import first_broken_link
from tests.conftest import needs_postgres
from tests.games.helpers import humans_game, to_act

pytestmark = pytest.mark.django_db(transaction=True)

# The recorder's statement: the row's conditional UPDATE with the INSERT of the events (one
# statement on PostgreSQL, two in a short transaction on SQLite).
QUERIES_PER_MOVE = 1 if connection.vendor == "postgresql" else 2


def mover_of(game: Game, users: list) -> tuple[int, Any]:
    (seat,) = to_act(game)
    return seat, game.seats.get(number=seat).user


def first_legal(game: Game, seat: int) -> dict[str, Any]:
    game.refresh_from_db()
    return selectors.legal_commands(game, seat)[0]


def submit_counting(game: Game, user, command: dict, **extra) -> list[str]:
    """The statements of one move (transaction control aside)."""
    with CaptureQueriesContext(connection) as queries:
        services.game_submit(game_id=game.id, user=user, command=command, **extra)
    return [q["sql"] for q in queries.captured_queries if not _transaction_control(q["sql"])]


def _transaction_control(sql: str) -> bool:
    return sql.split(" ", 1)[0].upper() in {"BEGIN", "COMMIT", "SAVEPOINT", "RELEASE"}


@pytest.fixture
def sent_bot_turns(settings, monkeypatch) -> list:
    """Bot turns handed to the runner (which plays none of them)."""
    settings.BOT_RUNNER = "none"
    sent: list = []
    real = scheduling.send
    monkeypatch.setattr(
        scheduling, "send", lambda game, jobs: sent.extend(jobs) or real(game, jobs)
    )
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


def test_a_moves_statements_do_not_grow_with_the_games_length(make_user, sent_bot_turns):
    users = [make_user("ana"), make_user("bob")]
    game = humans_game(users)
    counts = []
    for _ in range(12):
        seat, mover = mover_of(game, users)
        sql = submit_counting(game, mover, first_legal(game, seat), command_id=uuid.uuid4())
        counts.append(len(sql))
        game.refresh_from_db()
    assert set(counts) == {QUERIES_PER_MOVE}, counts


def test_a_move_that_hands_the_turn_to_a_bot_schedules_it_without_a_query(
    make_user, sent_bot_turns
):
    ana = make_user("ana")
    game = humans_game([ana], bots=1)
    human = game.seats.get(user=ana).number
    while to_act(game) != {human}:  # the bot opened: play its turns by hand
        ((bot, _),) = [(s, lvl) for s, lvl in turns.bot_seats_to_act(game)]
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
    """A cache of heads per thread: each thread stands for a server process."""

    def __init__(self) -> None:
        self._local = threading.local()

    def _cache(self) -> storage.HeadCache:
        if not hasattr(self._local, "cache"):
            self._local.cache = storage.HeadCache(storage.CACHE_SIZE)
        return self._local.cache

    def take(self, game_id):
        return self._cache().take(game_id)

    def put(self, head) -> None:
        self._cache().put(head)

    def clear(self) -> None:
        self._cache().clear()


def _replayed_truth(game: Game) -> tuple[dict, dict]:
    """Each seat's (and a spectator's) view and legal commands from a full replay."""
    rules = get_ruleset(game.ruleset)
    table = storage.replay(game)
    seats = [*range(table.players), None]
    views = {s: tables.view(rules, table, s) for s in seats}
    legal = {s: rules.legal_commands(table.rules, s) for s in seats[:-1]}
    return views, legal


def _served(game: Game) -> tuple[dict, dict]:
    """What this process serves: views and legal commands from its own cached state."""
    rules = get_ruleset(game.ruleset)
    with storage.reading(game) as table:
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
    at once holds its state one move behind: the load folds the move from the log."""
    settings.BOT_RUNNER = "none"
    settings.SNAPSHOT_EVERY = 7  # loads from a snapshot plus a tail happen too
    per_thread = _CachePerThread()
    monkeypatch.setattr(storage, "heads", per_thread)
    monkeypatch.setattr(storage.state, "heads", per_thread)
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
    records = [storage.record_of(r) for r in GameEvent.objects.filter(game=game).order_by("seq")]
    assert first_broken_link(records) is None


def _wait_until_blocked_on_a_lock(timeout: float = 10.0) -> None:
    """Until another session of this database waits for a row lock (or ``timeout``): the
    recorder's UPDATE of a row that a write still in its transaction changed."""
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
    ``second``'s write waits for it; returns (first's result, second's)."""
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
def test_a_retry_that_raced_its_first_delivery_is_replayed(make_user, settings):
    """The retry's write waits for the first delivery's, then fails on its head: deciding
    again, it finds the recorded command_id."""
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
def test_a_move_decided_on_the_head_another_write_is_leaving_decides_again(make_user, settings):
    """Two moves of the same seat decided on one head: the second's write waits for the
    first's transaction, then fails on the head it moved; decided again on the new head,
    it is refused (not this seat's turn), and the log holds one move at that seq."""
    users = [make_user("ana"), make_user("bob")]
    settings.BOT_RUNNER = "none"
    game = humans_game(users)
    seat, mover = mover_of(game, users)
    head = game.head_seq
    legal = selectors.legal_commands(game, seat)
    first, second = _behind_a_held_lock(
        game, {"user": mover, "command": legal[0]}, {"user": mover, "command": legal[1]}
    )
    assert isinstance(second, ServiceError) and second.code == "not_your_turn", second
    assert GameEvent.objects.filter(game=game, seq=head + 1).count() == 1
    assert GameEvent.objects.filter(game=game).count() == first.head_seq
    records = [storage.record_of(r) for r in GameEvent.objects.filter(game=game).order_by("seq")]
    assert first_broken_link(records) is None
    game.refresh_from_db()
    assert _served(game) == _replayed_truth(game)


def post_counting(
    game: Game, user, command: dict, *, with_token: bool = True
) -> tuple[Any, list[str]]:
    """A POSTed move and its queries: a program's, with the account's API token, or a
    browser session's (``with_token=False``)."""
    from rest_framework.authtoken.models import Token
    from rest_framework.test import APIClient

    client = APIClient()
    token = Token.objects.get_or_create(user=user)[0] if with_token else None
    client.force_authenticate(user, token=token)
    body = {"command": command, "command_id": str(uuid.uuid4()), "expected_seq": game.head_seq}
    with CaptureQueriesContext(connection) as queries:
        answer = client.post(f"/api/tables/{game.id}/commands/", body, format="json")
    return answer, [q["sql"] for q in queries.captured_queries]


def test_a_posted_move_is_answered_from_what_the_write_held(make_user, sent_bot_turns):
    # The answer's events, redacted for the poster, are those the write computed for its
    # seat's sockets: the second move of a game costs the write path's queries and not
    # one more.
    # A browser session's POST (the page's fallback when its socket is down) costs one
    # query more: whether the account is a bot's, which plays through the API only.
    users = [make_user("ana"), make_user("bob")]
    game = humans_game(users)
    for move in range(3):
        seat, mover = mover_of(game, users)
        answer, sql = post_counting(game, mover, first_legal(game, seat), with_token=move < 2)
        assert answer.status_code == 201, answer.json()
        write_path = [q for q in sql if not _transaction_control(q)]
        if move == 1:
            assert len(write_path) == QUERIES_PER_MOVE, sql
        if move == 2:
            assert len(write_path) == QUERIES_PER_MOVE + 1, sql
            assert '"players_botaccount"' in write_path[0]
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
    storage.heads.clear()
    row = Game.objects.get(pk=game.id)
    row.head_seq = behind
    hash_at = GameEvent.objects.get(game=game, seq=behind).hash
    storage.heads.put(storage.Head(row, storage.replay(game, upto=behind), hash_at))
    return game, behind, (mover, command)


def test_a_move_in_a_process_whose_state_is_behind_folds_the_missing_events_from_the_log(
    make_user, sent_bot_turns
):
    users = [make_user("ana"), make_user("bob")]
    game, behind, (mover, command) = _two_moves_then_held_behind(users)
    services.game_submit(game_id=game.id, user=mover, command=command, command_id=uuid.uuid4())
    game.refresh_from_db()
    assert _served(game) == _replayed_truth(game)
