"""A move over the game socket takes the one way in for a move (games/api/moves.py), with
its answers: accepted (in the frame of its events), stale_seq, a replayed command_id, the
body rules, the rate limit, and nothing recorded for a refusal."""

from __future__ import annotations

import uuid
from typing import Any

import pytest
from asgiref.sync import async_to_sync
from channels.routing import URLRouter
from channels.testing import WebsocketCommunicator
from django.contrib.auth.models import AnonymousUser

from games import selectors
from games.models import Game, GameEvent
from kingdom.routing import websocket_urlpatterns
from tests.games.helpers import humans_game, to_act

pytestmark = pytest.mark.django_db(transaction=True)
app = URLRouter(websocket_urlpatterns)


def mover(game: Game, users: list) -> tuple[Any, dict]:
    game.refresh_from_db()
    (seat,) = to_act(game)
    return game.seats.get(number=seat).user, selectors.legal_commands(game, seat)[0]


def exchange(game: Game, user, messages: list[dict], frames: int = 0) -> list[dict]:
    """Open ``user``'s game socket, send ``messages`` one by one, and collect each
    answer (``accepted``, alone or in an events frame, or ``error``) and, after them,
    ``frames`` stream frames (an events frame that carried an answer counts, as sent)."""
    return async_to_sync(_exchange)(game, user, messages, frames)


async def _exchange(game: Game, user, messages: list[dict], frames: int) -> list[dict]:
    ws = WebsocketCommunicator(app, f"/ws/games/{game.id}/")
    ws.scope["user"] = user
    connected, _ = await ws.connect()
    assert connected
    await ws.receive_json_from(timeout=5)  # the greeting frame
    answers, seen = [], []
    for message in messages:
        await ws.send_json_to(message)
        while True:
            reply = await ws.receive_json_from(timeout=10)
            if reply["type"] in {"accepted", "error"}:
                answers.append(reply)
                break
            seen.append(reply)
            if "accepted" in reply:
                answers.append({"type": "accepted", **reply["accepted"]})
                break
    while len(seen) < frames:
        seen.append(await ws.receive_json_from(timeout=10))
    await ws.disconnect()
    return answers + seen[:frames]


def test_a_move_over_the_socket_is_accepted_in_the_frame_of_its_events(make_user):
    users = [make_user("ana"), make_user("bob")]
    game = humans_game(users)
    user, command = mover(game, users)
    head = game.head_seq
    accepted, frame = exchange(
        game,
        user,
        [{"type": "command", "ref": "m1", "command": command, "expected_seq": head}],
        frames=1,
    )
    game.refresh_from_db()
    assert accepted == {
        "type": "accepted",
        "ref": "m1",
        "head_seq": game.head_seq,
        "replayed": False,
    }
    assert game.head_seq > head
    assert frame["type"] == "events" and frame["head"] == game.head_seq
    # One frame: the mover's events and the answer, as the writer computed them.
    assert frame["accepted"] == {k: v for k, v in accepted.items() if k != "type"}
    assert [e["seq"] for e in frame["events"]] == list(range(head + 1, game.head_seq + 1))
    row = GameEvent.objects.get(game=game, seq=head + 1)
    assert row.actor == f"seat:{game.seats.get(user=user).number}"
    assert row.command == command


def test_the_answer_rides_only_in_the_moving_sockets_frame_and_comes_once(make_user):
    """The mover's other tab and the other player get the same events without the
    answer; the group message that follows the write sends the mover's socket nothing
    more (a ping's pong is its next frame)."""
    users = [make_user("ana"), make_user("bob")]
    game = humans_game(users)
    user, command = mover(game, users)
    other = next(u for u in users if u != user)
    head = game.head_seq

    async def scenario() -> tuple[list[dict], dict, dict]:
        sockets = []
        for who in (user, user, other):
            ws = WebsocketCommunicator(app, f"/ws/games/{game.id}/")
            ws.scope["user"] = who
            assert (await ws.connect())[0]
            await ws.receive_json_from(timeout=5)
            sockets.append(ws)
        moving, tab, opponent = sockets
        await moving.send_json_to({"type": "command", "ref": "m", "command": command})
        answered = await moving.receive_json_from(timeout=10)
        await moving.send_json_to({"type": "ping"})
        after = [answered, await moving.receive_json_from(timeout=10)]
        others = await tab.receive_json_from(timeout=10), await opponent.receive_json_from(10)
        for ws in sockets:
            await ws.disconnect()
        return after, *others

    (answered, pong), tab, opponent = async_to_sync(scenario)()
    game.refresh_from_db()
    assert answered["type"] == "events" and answered["head"] == game.head_seq > head
    assert answered["accepted"] == {"ref": "m", "head_seq": game.head_seq, "replayed": False}
    assert pong == {"type": "pong", "head": game.head_seq}
    assert tab["head"] == opponent["head"] == game.head_seq
    assert "accepted" not in tab and "accepted" not in opponent
    assert tab["events"] == answered["events"]  # one audience: the same frame, bar the answer


def test_a_replayed_command_id_is_answered_alone(make_user):
    """A replay appends nothing: no events to carry the answer, which goes alone."""
    users = [make_user("ana"), make_user("bob")]
    game = humans_game(users)
    user, command = mover(game, users)
    message = {"type": "command", "ref": 1, "command": command, "command_id": str(uuid.uuid4())}

    async def scenario() -> list[dict]:
        ws = WebsocketCommunicator(app, f"/ws/games/{game.id}/")
        ws.scope["user"] = user
        assert (await ws.connect())[0]
        await ws.receive_json_from(timeout=5)
        await ws.send_json_to(message)
        first = await ws.receive_json_from(timeout=10)
        await ws.send_json_to({**message, "ref": 2})
        again = await ws.receive_json_from(timeout=10)
        await ws.disconnect()
        return [first, again]

    first, again = async_to_sync(scenario)()
    assert first["type"] == "events" and first["accepted"]["replayed"] is False
    assert again == {
        "type": "accepted",
        "ref": 2,
        "head_seq": first["accepted"]["head_seq"],
        "replayed": True,
    }


def test_a_stale_expected_seq_is_refused_and_nothing_is_recorded(make_user):
    users = [make_user("ana"), make_user("bob")]
    game = humans_game(users)
    user, command = mover(game, users)
    head = game.head_seq
    (error,) = exchange(
        game, user, [{"type": "command", "ref": 7, "command": command, "expected_seq": head - 1}]
    )
    assert (error["type"], error["ref"], error["code"], error["status"]) == (
        "error",
        7,
        "stale_seq",
        409,
    )
    game.refresh_from_db()
    assert game.head_seq == head


def test_a_command_id_sent_twice_is_recorded_once_and_answered_as_a_replay(make_user):
    users = [make_user("ana"), make_user("bob")]
    game = humans_game(users)
    user, command = mover(game, users)
    head = game.head_seq
    message = {"type": "command", "command": command, "command_id": str(uuid.uuid4())}
    first, again = exchange(game, user, [message, message])
    assert (first["replayed"], again["replayed"]) == (False, True)
    assert first["head_seq"] == again["head_seq"]
    assert GameEvent.objects.filter(game=game, command_id=message["command_id"]).count() == 1
    game.refresh_from_db()
    assert game.head_seq == first["head_seq"] > head


@pytest.mark.parametrize(
    "message, code",
    [
        ({"command": "place"}, "invalid"),
        ({"command": {"type": "place_castle"}, "command_id": "not-a-uuid"}, "invalid"),
        ({"command": {"type": "place_castle"}, "expected_seq": -1}, "invalid"),
        ({"command": {"type": "no_such_move"}}, None),  # the rules' own refusal
    ],
    ids=["command-not-an-object", "bad-command-id", "negative-seq", "unknown-move"],
)
def test_a_bad_command_gets_a_json_error_and_the_log_is_unchanged(make_user, message, code):
    users = [make_user("ana"), make_user("bob")]
    game = humans_game(users)
    user, _ = mover(game, users)
    head = game.head_seq
    (error,) = exchange(game, user, [{"type": "command", **message}])
    assert error["type"] == "error" and error["message"]
    assert 400 <= error["status"] < 500
    if code is not None:
        assert error["code"] == code
    game.refresh_from_db()
    assert game.head_seq == head


def test_a_spectator_or_a_player_out_of_turn_may_not_move(make_user):
    users = [make_user("ana"), make_user("bob")]
    game = humans_game(users)
    user, command = mover(game, users)
    other = next(u for u in users if u != user)
    head = game.head_seq
    (anonymous,) = exchange(game, AnonymousUser(), [{"type": "command", "command": command}])
    (waiting,) = exchange(game, other, [{"type": "command", "command": command}])
    assert (anonymous["code"], anonymous["status"]) == ("not_authenticated", 403)
    assert waiting["type"] == "error" and 400 <= waiting["status"] < 500
    game.refresh_from_db()
    assert game.head_seq == head


def test_socket_moves_count_against_the_commands_rate_limit(make_user, settings):
    from django.core.cache import cache

    cache.clear()
    rates = settings.REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"]
    settings.REST_FRAMEWORK = {
        **settings.REST_FRAMEWORK,
        "DEFAULT_THROTTLE_RATES": {**rates, "commands": "1/min"},
    }
    users = [make_user("ana"), make_user("bob")]
    game = humans_game(users)
    user, command = mover(game, users)
    first, second = exchange(
        game,
        user,
        [
            {"type": "command", "command": command},
            {"type": "command", "command": {"type": "anything"}},
        ],
    )
    assert first["type"] == "accepted"
    assert (second["code"], second["status"]) == ("throttled", 429)
    assert second["retry_after"] >= 1
    cache.clear()


def test_a_failure_in_the_write_path_answers_a_json_500_and_the_socket_stays(
    make_user, monkeypatch, caplog
):
    from games.api import moves

    def broken(**_):
        raise RuntimeError("the disk is on fire")

    monkeypatch.setattr(moves.services, "game_submit", broken)
    users = [make_user("ana"), make_user("bob")]
    game = humans_game(users)
    user, command = mover(game, users)

    async def scenario() -> tuple[dict, dict]:
        ws = WebsocketCommunicator(app, f"/ws/games/{game.id}/")
        ws.scope["user"] = user
        assert (await ws.connect())[0]
        await ws.receive_json_from(timeout=5)
        await ws.send_json_to({"type": "command", "ref": "x", "command": command})
        error = await ws.receive_json_from(timeout=10)
        await ws.send_json_to({"type": "ping"})
        pong = await ws.receive_json_from(timeout=10)
        await ws.disconnect()
        return error, pong

    error, pong = async_to_sync(scenario)()
    assert (error["type"], error["ref"], error["status"], error["code"]) == (
        "error",
        "x",
        500,
        "server_error",
    )
    assert "fire" not in error["message"]
    assert "failed" in caplog.text
    assert pong["type"] == "pong", "the socket is still open"


def test_a_banned_players_open_socket_can_no_longer_move(make_user):
    from community import services as community_services
    from tests.games.helpers import make_moderator

    users = [make_user("ana"), make_user("bob")]
    game = humans_game(users)
    user, command = mover(game, users)
    moderator = make_moderator(make_user("mod"))
    community_services.account_ban(player=user, moderator=moderator, reason="cheating")
    game.refresh_from_db()
    head = game.head_seq
    (error,) = exchange(game, user, [{"type": "command", "command": command}])
    assert error["type"] == "error" and 400 <= error["status"] < 500
    game.refresh_from_db()
    assert game.head_seq == head
