"""PostgreSQL only: the append-only triggers (events and snapshots: no UPDATE, DELETE or
TRUNCATE) and concurrent commands on one game."""

from __future__ import annotations

import threading
import uuid

import pytest
from django.core.management import call_command
from django.db import DatabaseError, connection, connections, transaction

from games import selectors, services
from games.errors import ServiceError
from games.models import Game, GameEvent, Snapshot
from tests.conftest import needs_postgres

pytestmark = [needs_postgres, pytest.mark.django_db(transaction=True)]


def two_humans(make_user) -> tuple[Game, list]:
    ana, bob = make_user("ana"), make_user("bob")
    game = services.table_create(user=ana, ruleset="kingdoms", seats=2)
    services.table_join(game_id=game.id, user=bob)
    services.game_start(game_id=game.id, user=ana)
    return Game.objects.get(pk=game.id), [ana, bob]


def test_trigger_refuses_update_and_delete_of_events(make_user):
    game, _ = two_humans(make_user)
    row = GameEvent.objects.filter(game=game).first()
    with pytest.raises(DatabaseError, match="append-only"), transaction.atomic():
        GameEvent.objects.filter(pk=row.pk).update(actor="someone else")
    with (
        pytest.raises(DatabaseError, match="append-only"),
        transaction.atomic(),
        connection.cursor() as cursor,
    ):
        cursor.execute("DELETE FROM games_gameevent WHERE id = %s", [row.pk])
    assert GameEvent.objects.get(pk=row.pk).actor == row.actor


def test_trigger_refuses_truncate_of_events_and_snapshots(make_user, settings):
    settings.SNAPSHOT_EVERY = 1
    game, _ = two_humans(make_user)
    snapshots = Snapshot.objects.filter(game=game).count()
    assert snapshots > 0
    for table in ("games_gameevent", "games_snapshot"):
        with (
            pytest.raises(DatabaseError, match=f"{table} is append-only \\(TRUNCATE refused\\)"),
            transaction.atomic(),
            connection.cursor() as cursor,
        ):
            cursor.execute(f"TRUNCATE {table} CASCADE")
    assert GameEvent.objects.filter(game=game).count() == game.head_seq
    assert Snapshot.objects.filter(game=game).count() == snapshots


def test_trigger_refuses_update_and_delete_of_snapshots(make_user, settings):
    settings.SNAPSHOT_EVERY = 1
    game, _ = two_humans(make_user)
    snapshot = Snapshot.objects.filter(game=game).first()
    with pytest.raises(DatabaseError, match="games_snapshot is append-only"), transaction.atomic():
        Snapshot.objects.filter(pk=snapshot.pk).update(signature="forged")
    with pytest.raises(DatabaseError, match="games_snapshot is append-only"), transaction.atomic():
        Snapshot.objects.filter(pk=snapshot.pk).delete()
    assert Snapshot.objects.get(pk=snapshot.pk).signature == snapshot.signature


def test_flush_alone_may_truncate_the_log_and_only_for_its_own_session(make_user):
    """The test suite's teardown (manage.py flush) empties every table; the setting it
    uses to pass the guard does not outlive it."""
    two_humans(make_user)
    call_command("flush", interactive=False, verbosity=0)
    assert not GameEvent.objects.exists() and not Game.objects.exists()
    with connection.cursor() as cursor:
        cursor.execute("SELECT current_setting('kingdom.flush', true)")
        assert cursor.fetchone()[0] in (None, "")
    with (
        pytest.raises(DatabaseError, match="append-only"),
        transaction.atomic(),
        connection.cursor() as cursor,
    ):
        cursor.execute("TRUNCATE games_gameevent CASCADE")


def test_many_threads_submitting_to_one_game_leave_a_gapless_log(make_user):
    game, users = two_humans(make_user)
    accepted: list[uuid.UUID] = []
    refused: list[str] = []
    lock = threading.Lock()
    start = threading.Barrier(8)

    def player(user) -> None:
        start.wait()
        try:
            for _ in range(15):
                fresh = selectors.get_game(game.id)
                seat = selectors.viewer_seat(fresh, user)
                legal = selectors.legal_commands(fresh, seat)
                if fresh.status != Game.Status.ACTIVE:
                    return
                if not legal:
                    continue
                command_id = uuid.uuid4()
                try:
                    services.game_submit(
                        game_id=game.id, user=user, command=legal[0], command_id=command_id
                    )
                    with lock:
                        accepted.append(command_id)
                except ServiceError as exc:
                    with lock:
                        refused.append(exc.code)
        finally:
            connections.close_all()

    threads = [threading.Thread(target=player, args=(users[i % 2],)) for i in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    seqs = list(GameEvent.objects.filter(game=game).order_by("seq").values_list("seq", flat=True))
    assert seqs == list(range(1, len(seqs) + 1))
    game.refresh_from_db()
    assert game.head_seq == len(seqs)
    recorded = list(
        GameEvent.objects.filter(game=game, command_id__in=accepted).values_list(
            "command_id", flat=True
        )
    )
    assert sorted(recorded) == sorted(accepted)
    assert len(accepted) > 5
