"""Playing through the bot API: a move takes the one way in for a move and answers as
``/api/tables/<id>/commands/`` does; resign, abort (before the first move) and chat."""

from __future__ import annotations

import uuid

import pytest

from community.models import ChatMessage
from games.models import Game, GameEvent
from tests.games.helpers import json_refusal, to_act


@pytest.fixture
def game(api):
    """A started Kingdoms game of ana and bob, from bob's accepted challenge."""
    ana, bob = api("ana"), api("bob")
    challenge = ana.post("/api/challenge/bob/", {"ruleset": "kingdoms"}, format="json").json()
    bob.post(f"/api/challenge/{challenge['id']}/accept/")
    game = Game.objects.get(pk=challenge["table"])
    seats = {s.user.username: s.number for s in game.seats.select_related("user")}
    players = {seats["ana"]: ana, seats["bob"]: bob}
    return game, players


def _mover(game, players):
    (seat,) = to_act(game)
    return seat, players[seat], players[1 - seat]


def test_a_move_answers_as_the_tables_commands_endpoint(game):
    game, players = game
    seat, mover, _other = _mover(game, players)
    legal = mover.get(f"/api/tables/{game.id}/legal/").json()["commands"]
    body = {"command": legal[0], "command_id": str(uuid.uuid4()), "expected_seq": game.head_seq}
    moved = mover.post(f"/api/bot/game/{game.id}/move/", body, format="json")
    assert moved.status_code == 201
    assert moved.json()["head_seq"] > game.head_seq and moved.json()["events"]
    again = mover.post(f"/api/tables/{game.id}/commands/", body, format="json")
    assert again.status_code == 200 and again.json()["replayed"] is True
    assert again.json()["head_seq"] == moved.json()["head_seq"]


def test_a_move_for_another_seat_or_out_of_turn_is_refused_and_changes_nothing(game, api):
    game, players = game
    seat, mover, other = _mover(game, players)
    legal = mover.get(f"/api/tables/{game.id}/legal/").json()["commands"]
    before = GameEvent.objects.count()
    out_of_turn = other.post(f"/api/bot/game/{game.id}/move/", {"command": legal[0]}, format="json")
    assert out_of_turn.status_code in (400, 403), out_of_turn.json()
    json_refusal(out_of_turn)
    stranger = api("carol").post(
        f"/api/bot/game/{game.id}/move/", {"command": legal[0]}, format="json"
    )
    assert stranger.status_code == 403 and json_refusal(stranger)["code"] == "not_seated"
    shapeless = mover.post(f"/api/bot/game/{game.id}/move/", {"command": "e4"}, format="json")
    assert shapeless.status_code == 400
    assert GameEvent.objects.count() == before


def test_resigning_through_the_bot_api_hands_the_seat_to_a_bot(game):
    game, players = game
    seat, mover, _other = _mover(game, players)
    resigned = mover.post(f"/api/bot/game/{game.id}/resign/")
    assert resigned.status_code == 200 and resigned.json()["head_seq"] > game.head_seq
    assert game.seats.get(number=seat).resigned


def test_a_game_nobody_moved_in_may_be_aborted_but_not_after_a_move(game, api):
    game, players = game
    seat, mover, other = _mover(game, players)
    stranger = api("carol").post(f"/api/bot/game/{game.id}/abort/")
    assert stranger.status_code == 403
    legal = mover.get(f"/api/tables/{game.id}/legal/").json()["commands"]
    assert mover.post(f"/api/bot/game/{game.id}/move/", {"command": legal[0]}, format="json")
    before = GameEvent.objects.count()
    late = other.post(f"/api/bot/game/{game.id}/abort/")
    assert late.status_code == 409 and json_refusal(late)["code"] == "game_underway"
    assert GameEvent.objects.count() == before


def test_aborting_before_the_first_move_ends_the_game_without_a_result(game):
    game, players = game
    _seat, _mover_client, other = _mover(game, players)
    aborted = other.post(f"/api/bot/game/{game.id}/abort/")
    assert aborted.status_code == 200
    game.refresh_from_db()
    assert game.status == Game.Status.ABORTED
    last = GameEvent.objects.filter(game=game).order_by("-seq").first()
    assert last.type == "game_aborted" and "before the first move" in last.public["reason"]


def test_chat_through_the_bot_api(game):
    game, players = game
    said = players[0].post(f"/api/bot/game/{game.id}/chat/", {"body": "good luck"}, format="json")
    assert said.status_code == 201
    assert ChatMessage.objects.get(game=game).body == "good luck"
