"""A write transaction in two round trips on PostgreSQL (games/round_trips.py): BEGIN
travels with the first statement, COMMIT with the held-back write; order, rollback and
Django's transaction bookkeeping stay as with ``transaction.atomic``."""

from __future__ import annotations

import uuid

import pytest
from django.db import IntegrityError, connection, transaction

from games import round_trips, selectors, services, store
from games.chain import first_broken_link
from games.models import GameEvent
from games.services.own_heads import own_heads
from tests.conftest import needs_postgres
from tests.games.helpers import humans_game, to_act

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def sent_to_postgres(monkeypatch) -> list[str]:
    """Every message the Django connection sends PostgreSQL, in order: statements through
    Django's cursor and the transaction commands psycopg sends itself (BEGIN, COMMIT)."""
    import psycopg
    from django.db.backends.postgresql import base

    sent: list[str] = []
    execute = base.Cursor.execute

    def recording_execute(self, query, params=None, **kwargs):
        sent.append(str(query))
        return execute(self, query, params, **kwargs)

    exec_command = psycopg._connection_base.BaseConnection._exec_command

    def recording_command(self, command, *args, **kwargs):
        sent.append(command.decode() if isinstance(command, bytes) else str(command))
        return exec_command(self, command, *args, **kwargs)

    monkeypatch.setattr(base.Cursor, "execute", recording_execute)
    monkeypatch.setattr(psycopg._connection_base.BaseConnection, "_exec_command", recording_command)
    return sent


def _marker_table() -> None:
    with connection.cursor() as cursor:
        cursor.execute("CREATE TABLE IF NOT EXISTS round_trip_marks (name text PRIMARY KEY)")
        cursor.execute("DELETE FROM round_trip_marks")


def _marks() -> list[str]:
    with connection.cursor() as cursor:
        cursor.execute("SELECT name FROM round_trip_marks ORDER BY name")
        return [name for (name,) in cursor.fetchall()]


MARK = "INSERT INTO round_trip_marks (name) VALUES (%s)"


def _move(game) -> None:
    game.refresh_from_db()
    (seat,) = to_act(game)
    services.game_submit(
        game_id=game.id,
        user=game.seats.get(number=seat).user,
        command=selectors.legal_commands(game, seat)[0],
        command_id=uuid.uuid4(),
        expected_seq=game.head_seq,
    )


@needs_postgres
def test_a_move_is_two_messages_begin_with_the_locking_read_and_commit_with_the_append(
    make_user, sent_to_postgres
):
    game = humans_game([make_user("ana"), make_user("bob")])
    _move(game)  # the pool's connection prepares the write path's statements
    game.refresh_from_db()
    (seat,) = to_act(game)
    command = selectors.legal_commands(game, seat)[0]
    mover = game.seats.get(number=seat).user
    own_heads.clear()  # as if another process had written the head
    sent_to_postgres.clear()
    services.game_submit(
        game_id=game.id,
        user=mover,
        command=command,
        command_id=uuid.uuid4(),
        expected_seq=game.head_seq,
    )
    assert len(sent_to_postgres) == 2, sent_to_postgres
    read, write = sent_to_postgres
    assert read.startswith("BEGIN; EXECUTE kingdom_"), read
    assert write.startswith("EXECUTE kingdom_") and write.endswith("; COMMIT"), write
    game.refresh_from_db()
    assert GameEvent.objects.filter(game=game).order_by("-seq").first().seq == game.head_seq


@needs_postgres
def test_a_move_after_the_processs_own_write_is_one_message_begin_append_commit(
    make_user, sent_to_postgres
):
    # games/services/own_heads.py: no locking read; the append checks the head itself.
    game = humans_game([make_user("ana"), make_user("bob")])
    for _ in range(2):  # prepares the statements of both ways; this process writes the head
        _move(game)
    game.refresh_from_db()
    (seat,) = to_act(game)
    move = {
        "game_id": game.id,
        "user": game.seats.get(number=seat).user,
        "command": selectors.legal_commands(game, seat)[0],
        "command_id": uuid.uuid4(),
        "expected_seq": game.head_seq,
    }
    sent_to_postgres.clear()
    services.game_submit(**move)
    assert len(sent_to_postgres) == 1, sent_to_postgres
    (write,) = sent_to_postgres
    assert write.startswith("BEGIN; EXECUTE kingdom_") and write.endswith("; COMMIT"), write
    game.refresh_from_db()
    rows = GameEvent.objects.filter(game=game).order_by("seq")
    assert rows.last().seq == game.head_seq
    assert first_broken_link([store.record_of(row) for row in rows]) is None


@needs_postgres
def test_the_held_write_goes_with_commit_and_the_on_commit_hooks_run_after_it(sent_to_postgres):
    _marker_table()
    seen: list[list[str]] = []
    sent_to_postgres.clear()
    with round_trips.fused_transaction():
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
        round_trips.send_with_commit(MARK, ["a"])
        transaction.on_commit(lambda: seen.append(_marks()))
    # The hook's own read comes after the commit, and sees the write.
    assert sent_to_postgres[:2] == ["BEGIN; SELECT 1", f"{MARK}; COMMIT"]
    assert seen == [["a"]]


@needs_postgres
def test_a_statement_after_a_held_write_sends_it_first(sent_to_postgres):
    _marker_table()
    sent_to_postgres.clear()
    with round_trips.fused_transaction():
        round_trips.send_with_commit(MARK, ["a"])
        inside = _marks()  # sees the held write: it went first
        round_trips.send_with_commit(MARK, ["b"])
    assert inside == ["a"]
    assert _marks() == ["a", "b"]
    assert sent_to_postgres[:2] == [
        f"BEGIN; {MARK}",
        "SELECT name FROM round_trip_marks ORDER BY name",
    ]
    assert sent_to_postgres[2] == f"{MARK}; COMMIT"


@needs_postgres
def test_a_block_that_raises_sends_no_held_write_and_rolls_back():
    _marker_table()
    with pytest.raises(RuntimeError), round_trips.fused_transaction():
        with connection.cursor() as cursor:
            cursor.execute(MARK, ["before"])
        round_trips.send_with_commit(MARK, ["held"])
        raise RuntimeError("the decision failed")
    assert _marks() == []
    assert connection.get_autocommit() and not connection.in_atomic_block


@needs_postgres
def test_a_held_write_that_fails_at_commit_rolls_the_transaction_back():
    _marker_table()
    with connection.cursor() as cursor:
        cursor.execute(MARK, ["taken"])
    with pytest.raises(IntegrityError), round_trips.fused_transaction():
        with connection.cursor() as cursor:
            cursor.execute(MARK, ["before"])
        round_trips.send_with_commit(MARK, ["taken"])  # the primary key is taken
    assert _marks() == ["taken"]
    with round_trips.fused_transaction():  # the connection is usable again
        round_trips.send_with_commit(MARK, ["after"])
    assert _marks() == ["after", "taken"]


@needs_postgres
def test_an_inner_atomic_that_failed_leaves_the_rollback_to_django():
    _marker_table()
    with pytest.raises(IntegrityError), round_trips.fused_transaction():
        round_trips.send_with_commit(MARK, ["held"])
        with transaction.atomic(savepoint=False), connection.cursor() as cursor:
            cursor.execute(MARK, ["held"])  # fails: the block is marked for rollback
    assert _marks() == []


@needs_postgres
def test_inside_an_outer_transaction_it_is_a_plain_atomic(sent_to_postgres):
    _marker_table()
    sent_to_postgres.clear()
    with transaction.atomic(), round_trips.fused_transaction():
        round_trips.send_with_commit(MARK, ["now"])
        assert _marks() == ["now"]
    # psycopg's own BEGIN and COMMIT; the write went at once, alone.
    assert "BEGIN" in sent_to_postgres and sent_to_postgres[-1] == "COMMIT"
    assert MARK in sent_to_postgres


def test_moves_through_the_write_path_keep_an_unbroken_chain_to_the_head(make_user):
    """On PostgreSQL through the fused transaction, on SQLite through a plain one."""
    game = humans_game([make_user("ana"), make_user("bob")])
    for _ in range(6):
        _move(game)
    game.refresh_from_db()
    rows = GameEvent.objects.filter(game=game).order_by("seq")
    assert first_broken_link([store.record_of(row) for row in rows]) is None
    assert rows.last().seq == game.head_seq
