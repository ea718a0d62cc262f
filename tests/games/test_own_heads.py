"""A move right after the process's own write, or after a head another process wrote
and published with what it wrote (games/services/own_heads.py): no locking read, and
whenever what the process kept is no longer the truth the append writes nothing and the
locked way answers, exactly as it would have. PostgreSQL only (the round trips
themselves: tests/games/test_round_trips.py)."""

from __future__ import annotations

import json
import uuid
from typing import Any

import pytest
from asgiref.sync import async_to_sync, sync_to_async
from channels.layers import get_channel_layer
from channels.routing import URLRouter
from channels.testing import WebsocketCommunicator

from games import publish, selectors, services, store
from games.chain import first_broken_link
from games.errors import ServiceError
from games.models import Game, GameEvent
from games.routing import websocket_urlpatterns
from games.services import play
from games.services.own_heads import head_written, own_heads
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


def _published(monkeypatch) -> list[dict[str, Any]]:
    """The game messages this process publishes, as they go to the channel layer."""
    messages: list[dict[str, Any]] = []
    real = publish.game_advanced

    def recording(game_id, head, pushed=None, written=None):
        messages.append({"head": head, "pushed": pushed, "written": written})
        real(game_id, head, pushed, written)

    monkeypatch.setattr(publish, "game_advanced", recording)
    return messages


def _as_before_another_process_wrote(game: Game) -> tuple[Any, Any]:
    """What this process keeps at the game's head now: its head and the state."""
    return own_heads.take(game.id, game.head_seq), store.replay(game)


def _only_this_kept(here: Any, state: Any) -> None:
    own_heads.clear()
    own_heads.remember(here.game, here.seats, here.head_hash)
    store.state_cache.clear()
    store.state_cache.put(here.game.pk, here.seq, state)


def _no_locking_read(monkeypatch) -> None:
    def refuse(*args, **kwargs):
        raise AssertionError("the move read the game under its lock")

    monkeypatch.setattr(play, "lock_for_command", refuse)


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
        publish,
        "game_advanced",
        lambda g, head, p=None, w=None: pushed.append(p) or real(g, head, p, w),
    )
    move = _next_move(game)
    (waiting,) = [s.user for s in game.seats.all() if s.user != move["user"]]
    type(waiting).objects.filter(pk=waiting.pk).update(is_active=False)
    assert own_heads.held_seq(game.id) == game.head_seq
    services.game_submit(**move)
    assert pushed and waiting.pk not in {user for user, _ in pushed[-1]["viewers"]}
    assert own_heads.held_seq(game.id) is None  # the locked way for this game from now on
    _assert_log_is_the_truth(game)


def test_a_newer_head_heard_without_what_was_written_drops_what_the_process_kept(game):
    own_heads.heard(str(game.id), game.head_seq, None)  # its own head, heard back: kept
    assert own_heads.take(game.id, None) is not None
    services.game_submit(**_next_move(game))
    game.refresh_from_db()
    own_heads.heard(str(game.id), game.head_seq + 1, None)
    assert own_heads.take(game.id, None) is None


def test_heads_another_process_wrote_and_published_are_built_on_without_the_locking_read(
    game, monkeypatch
):
    published = _published(monkeypatch)
    here, state = _as_before_another_process_wrote(game)
    for _ in range(2):  # "another process" moves the game on twice
        services.game_submit(**_next_move(game))
    game.refresh_from_db()
    move = _next_move(game)
    _only_this_kept(here, state)
    first, second = (message["written"] for message in published[-2:])
    assert first["after"] == here.seq and second["after"] == here.seq + len(first["events"])
    own_heads.heard(str(game.id), second["after"], first)
    own_heads.heard(str(game.id), game.head_seq, second)
    own_heads.heard(str(game.id), game.head_seq, second)  # a second socket hears it too
    assert own_heads.held_seq(game.id) == game.head_seq
    _no_locking_read(monkeypatch)
    services.game_submit(**move, expected_seq=game.head_seq)
    _assert_log_is_the_truth(game)
    assert own_heads.held_seq(game.id) == game.head_seq  # its own write now


def test_a_heard_head_another_process_appended_past_goes_the_locked_way(game, monkeypatch):
    published = _published(monkeypatch)
    here, state = _as_before_another_process_wrote(game)
    services.game_submit(**_next_move(game))
    game.refresh_from_db()
    heard_head, written = game.head_seq, published[-1]["written"]
    move = _next_move(game)
    services.game_submit(**move)  # and once more, unheard here
    game.refresh_from_db()
    _only_this_kept(here, state)
    own_heads.heard(str(game.id), heard_head, written)
    with pytest.raises(ServiceError) as kept:
        services.game_submit(**{**move, "command_id": uuid.uuid4()})
    own_heads.clear()
    with pytest.raises(ServiceError) as locked:
        services.game_submit(**{**move, "command_id": uuid.uuid4()})
    assert (kept.value.code, kept.value.status) == (locked.value.code, locked.value.status)
    game.refresh_from_db()
    assert game.head_seq == heard_head + 1
    _assert_log_is_the_truth(game)


def test_a_heard_head_that_does_not_follow_on_from_what_was_kept_drops_it(game, monkeypatch):
    published = _published(monkeypatch)
    here, state = _as_before_another_process_wrote(game)
    for _ in range(2):
        services.game_submit(**_next_move(game))
    game.refresh_from_db()
    _only_this_kept(here, state)
    own_heads.heard(str(game.id), game.head_seq, published[-1]["written"])  # one was lost
    assert own_heads.held_seq(game.id) is None


def test_a_write_that_ends_the_game_or_seats_a_bot_publishes_nothing_to_build_on(game, monkeypatch):
    published = _published(monkeypatch)
    services.game_submit(**_next_move(game))
    assert published[-1]["written"] is not None
    services.game_resign(game_id=game.id, user=_next_move(game)["user"])
    assert published[-1]["written"] is None  # a bot plays the seat from now on
    rows = list(GameEvent.objects.filter(game=game).order_by("-seq")[:1])
    game.refresh_from_db()
    game.status = Game.Status.FINISHED
    assert head_written(game, rows, seats_changed=False) is None


def test_what_was_written_never_reaches_a_socket(game, monkeypatch):
    held_back: list[dict[str, Any]] = []
    monkeypatch.setattr(  # the write's message is sent below, marked
        publish,
        "game_advanced",
        lambda g, head, p=None, w=None: held_back.append({"head": head, "pushed": p, "written": w}),
    )
    move = _next_move(game)
    (watcher,) = [s.user for s in game.seats.all() if s.user != move["user"]]
    app = URLRouter(websocket_urlpatterns)

    async def scenario() -> str:
        ws = WebsocketCommunicator(app, f"/ws/games/{game.id}/")
        ws.scope["user"] = watcher
        connected, _ = await ws.connect()
        assert connected
        await ws.receive_from(timeout=5)
        await sync_to_async(services.game_submit)(**move)
        (message,) = held_back
        written = message["written"]
        written["events"] = [
            [kind, {**public, "marker": "WRITTEN-ONLY"}, private]
            for kind, public, private in written["events"]
        ]
        await get_channel_layer().group_send(
            publish.game_group(game.id), {"type": "game.advanced", **message}
        )
        frame = await ws.receive_from(timeout=5)
        await ws.disconnect()
        return frame

    frame = async_to_sync(scenario)()
    game.refresh_from_db()
    assert json.loads(frame)["head"] == game.head_seq
    assert "WRITTEN-ONLY" not in frame
    assert '"written"' not in frame


def test_what_the_process_keeps_are_copies_the_writer_cannot_change(game):
    own = own_heads.take(game.id, game.head_seq)
    own_heads.remember(own.game, own.seats, own.head_hash)
    own.game.head_seq += 5
    own.seats[0].number = 7
    kept = own_heads.take(game.id, None)
    assert kept.seq == game.head_seq
    assert kept.seats[0].number != 7
    assert all(seat.game is kept.game for seat in kept.seats)


def test_a_heard_head_whose_message_cannot_be_followed_drops_what_was_kept_and_goes_on(game):
    here = own_heads.take(game.id, game.head_seq)
    own_heads.remember(here.game, here.seats, here.head_hash)
    broken = {"after": here.seq, "hash": "x", "deadline": None, "events": [["placed", {}, 7]]}
    own_heads.heard(str(game.id), here.seq + 1, broken)  # a socket's frame must still go
    assert own_heads.held_seq(game.id) is None


def test_an_earlier_writes_late_commit_does_not_replace_a_newer_kept_head(game):
    older = own_heads.take(game.id, game.head_seq)
    services.game_submit(**_next_move(game))
    game.refresh_from_db()
    own_heads.remember(older.game, older.seats, older.head_hash)
    assert own_heads.held_seq(game.id) == game.head_seq


def test_the_in_memory_layer_carries_nothing_to_build_on(game, settings):
    settings.CHANNEL_LAYERS = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}
    sent: list[dict[str, Any]] = []
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(publish, "send_to_group", lambda group, message: sent.append(message))
        publish.game_advanced(game.id, game.head_seq, None, {"after": 0, "events": []})
    assert sent == [{"type": "game.advanced", "head": game.head_seq}]
