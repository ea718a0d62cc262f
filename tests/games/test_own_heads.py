"""A move right after the process's own write (games/services/own_heads.py): no locking
read, and whenever what the process kept is no longer the truth the append writes
nothing and the locked way answers, exactly as it would have. PostgreSQL only (the
round trips themselves: tests/games/test_round_trips.py)."""

from __future__ import annotations

import uuid
from typing import Any

import pytest

from games import publish, selectors, services, store
from games.chain import first_broken_link
from games.errors import ServiceError
from games.models import Game, GameEvent
from games.services.own_heads import own_heads
from tests.conftest import needs_postgres
from tests.games.helpers import humans_game, to_act

pytestmark = [pytest.mark.django_db(transaction=True), needs_postgres]


def _next_move(game: Game) -> dict[str, Any]:
    game.refresh_from_db()
    (seat,) = to_act(game)
    return {
        "game_id": game.id,
        "user": game.seats.get(number=seat).user,
        "command": selectors.legal_commands(game, seat)[0],
        "command_id": uuid.uuid4(),
    }


def _assert_log_is_the_truth(game: Game) -> None:
    """An unbroken chain to the head, and what the process serves is a full replay's."""
    game.refresh_from_db()
    rows = list(GameEvent.objects.filter(game=game).order_by("seq"))
    assert rows[-1].seq == game.head_seq
    assert first_broken_link([store.record_of(row) for row in rows]) is None
    truth = store.replay(game)
    for seat in (0, 1, None):
        with store.reading(game) as table:
            served = selectors.view_of(game, table, seat), selectors.legal_in(game, table, seat)
        assert served == (
            selectors.view_of(game, truth, seat),
            selectors.legal_in(game, truth, seat),
        )


@pytest.fixture
def game(make_user) -> Game:
    game = humans_game([make_user("ana"), make_user("bob")])
    services.game_submit(**_next_move(game))
    game.refresh_from_db()
    return game


def test_a_process_keeps_the_head_it_wrote(game):
    assert own_heads.held_seq(game.id) == game.head_seq
    own = own_heads.take(game.id, game.head_seq)
    assert own is not None
    assert own.seq == game.head_seq
    assert own.head_hash == GameEvent.objects.get(game=game, seq=game.head_seq).hash


def test_another_processs_append_in_between_makes_the_move_go_the_locked_way(game):
    stale = own_heads.take(game.id, game.head_seq)
    stale_state = store.replay(game)
    move = _next_move(game)
    services.game_submit(**move)  # "another process" moves the game on
    game.refresh_from_db()
    head = game.head_seq
    # This process still believes in its own head and holds the state at it, where the
    # same move, sent again as a new command, is legal: the append of its seq fails.
    own_heads.clear()
    own_heads.remember(stale.game, stale.seats, stale.head_hash)
    store.state_cache.clear()
    store.state_cache.put(game.id, stale.seq, stale_state)
    with pytest.raises(ServiceError) as kept:
        services.game_submit(**{**move, "command_id": uuid.uuid4()})
    # The answer is the locked way's, at the true head; and the game's writes are shared,
    # so this process takes the locked way for it from now on.
    assert own_heads.held_seq(game.id) is None
    with pytest.raises(ServiceError) as locked:
        services.game_submit(**{**move, "command_id": uuid.uuid4()})
    assert (kept.value.code, kept.value.status) == (locked.value.code, locked.value.status)
    game.refresh_from_db()
    assert game.head_seq == head
    _assert_log_is_the_truth(game)
    services.game_submit(**_next_move(game))
    assert own_heads.held_seq(game.id) is None


def test_a_retried_command_id_is_replayed_not_appended_again(game):
    move = _next_move(game)
    first = services.game_submit(**move)
    again = services.game_submit(**move)
    assert again.replayed
    assert again.head_seq == first.head_seq
    assert GameEvent.objects.filter(game=game, command_id=move["command_id"]).count() == 1
    _assert_log_is_the_truth(game)


def test_an_illegal_command_gets_the_locked_ways_answer_and_writes_nothing(game):
    move = _next_move(game)
    move["command"] = {"type": "place_castle", "rank": 9, "space": [99, 99]}
    with pytest.raises(ServiceError) as kept:
        services.game_submit(**move)
    own_heads.clear()
    with pytest.raises(ServiceError) as locked:
        services.game_submit(**{**move, "command_id": uuid.uuid4()})
    assert (kept.value.code, kept.value.status) == (locked.value.code, locked.value.status)
    game.refresh_from_db()
    assert not GameEvent.objects.filter(game=game, seq__gt=game.head_seq).exists()
    _assert_log_is_the_truth(game)


def test_a_stale_expected_seq_is_refused_as_before(game):
    move = _next_move(game)
    with pytest.raises(ServiceError) as refused:
        services.game_submit(**move, expected_seq=game.head_seq - 1)
    assert refused.value.status == 409


def test_a_ban_between_moves_reaches_the_next_moves_push(game, monkeypatch):
    # A ban moves no head: the append checks the seats' active players and, finding one
    # fewer, writes nothing; the locked way then reads the account as banned.
    pushed: list[dict] = []
    real = publish.game_advanced
    monkeypatch.setattr(
        publish, "game_advanced", lambda g, head, p=None: pushed.append(p) or real(g, head, p)
    )
    move = _next_move(game)
    (waiting,) = [s.user for s in game.seats.all() if s.user != move["user"]]
    type(waiting).objects.filter(pk=waiting.pk).update(is_active=False)
    assert own_heads.held_seq(game.id) == game.head_seq
    services.game_submit(**move)
    assert pushed and waiting.pk not in {user for user, _ in pushed[-1]["viewers"]}
    assert own_heads.held_seq(game.id) is None  # the locked way for this game from now on
    _assert_log_is_the_truth(game)


def test_a_newer_head_heard_on_a_socket_drops_what_the_process_kept(game):
    own_heads.moved(str(game.id), game.head_seq)  # its own head, heard back: kept
    assert own_heads.take(game.id, None) is not None
    services.game_submit(**_next_move(game))
    game.refresh_from_db()
    own_heads.moved(str(game.id), game.head_seq + 1)
    assert own_heads.take(game.id, None) is None
