"""Idempotency is scoped to the actor: a recorded command_id is "the same command
retried" only for whoever recorded it."""

from __future__ import annotations

import uuid

import pytest
from rest_framework.test import APIClient

from bots import turns
from games import selectors, services
from games.errors import ServiceError
from games.models import Game, GameEvent
from tests.games.helpers import humans_game, to_act

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def pair(make_user) -> tuple[Game, object, object]:
    """A two-player game: (game, the player to act, the other player)."""
    users = [make_user("ana"), make_user("bob")]
    game = humans_game(users)
    (seat,) = to_act(game)
    mover = game.seats.get(number=seat).user
    return game, mover, next(u for u in users if u != mover)


def client_of(user) -> APIClient:
    client = APIClient()
    client.force_authenticate(user)
    return client


def first_legal(game: Game, user) -> dict:
    game.refresh_from_db()
    return selectors.legal_commands(game, game.seats.get(user=user).number)[0]


def test_another_players_recorded_command_id_is_a_409_and_not_replayed(pair):
    game, mover, other = pair
    command = first_legal(game, mover)
    command_id = str(uuid.uuid4())
    body = {"command": command, "command_id": command_id}
    first = client_of(mover).post(f"/api/tables/{game.id}/commands/", body, format="json")
    assert first.status_code == 201, first.json()
    logged = GameEvent.objects.filter(game=game).count()

    stolen = client_of(other).post(f"/api/tables/{game.id}/commands/", body, format="json")
    assert stolen.status_code == 409
    assert stolen.json()["code"] == "command_id_taken" and stolen.json()["message"]
    assert "events" not in stolen.json(), "another actor's events are never replayed"
    assert GameEvent.objects.filter(game=game).count() == logged

    again = client_of(mover).post(f"/api/tables/{game.id}/commands/", body, format="json")
    assert again.status_code == 200, again.json()
    assert again.json()["replayed"] is True
    assert again.json()["events"] == first.json()["events"]


def test_a_player_who_took_another_players_id_first_gets_only_their_own_move(pair):
    """The id recorded first is the first actor's; the other's use of it is refused and
    their own next command (a fresh id, as the client always sends) goes through."""
    game, mover, other = pair
    command_id = uuid.uuid4()
    services.game_submit(
        game_id=game.id, user=mover, command=first_legal(game, mover), command_id=command_id
    )
    game.refresh_from_db()
    (seat,) = to_act(game)
    assert seat == game.seats.get(user=other).number
    with pytest.raises(ServiceError) as err:
        services.game_submit(
            game_id=game.id, user=other, command=first_legal(game, other), command_id=command_id
        )
    assert (err.value.code, err.value.status) == ("command_id_taken", 409)
    moved = services.game_submit(game_id=game.id, user=other, command=first_legal(game, other))
    assert not moved.replayed and moved.events[0].actor == f"seat:{seat}"


def test_a_bots_recorded_command_id_is_not_replayed_to_a_player(make_user, settings):
    settings.BOT_RUNNER = "none"
    users = [make_user("ana"), make_user("bob"), make_user("cy")]
    game = humans_game(users)
    (seat,) = to_act(game)
    leaver = game.seats.get(number=seat).user
    services.game_resign(game_id=game.id, user=leaver)
    game.refresh_from_db()
    head = game.head_seq
    assert turns.take_turn(game.id, seat, head) is True
    bot_row = GameEvent.objects.get(game=game, command_id=turns.bot_command_id(game.id, head, seat))
    for user in users:
        with pytest.raises(ServiceError) as err:
            services.game_submit(
                game_id=game.id, user=user, command=bot_row.command, command_id=bot_row.command_id
            )
        assert err.value.code == "command_id_taken"
    # The bot's own redelivery is still answered from the log.
    again = services.game_submit(
        game_id=game.id, bot_seat=seat, command=bot_row.command, command_id=bot_row.command_id
    )
    assert again.replayed and again.events[0].seq == bot_row.seq


def test_a_watcher_with_a_recorded_command_id_gets_a_409(pair, make_user):
    game, mover, _other = pair
    body = {"command": first_legal(game, mover), "command_id": str(uuid.uuid4())}
    first = client_of(mover).post(f"/api/tables/{game.id}/commands/", body, format="json")
    assert first.status_code == 201, first.json()
    watcher = client_of(make_user("watcher"))
    response = watcher.post(f"/api/tables/{game.id}/commands/", body, format="json")
    assert response.status_code == 409 and response.json()["code"] == "command_id_taken"
