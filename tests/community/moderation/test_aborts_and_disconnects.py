"""Aborting a game and closing its sockets: each needs a reason and is recorded."""

from __future__ import annotations

import pytest
from asgiref.sync import async_to_sync, sync_to_async
from channels.routing import URLRouter
from channels.testing import WebsocketCommunicator
from rest_framework.test import APIClient

from community.models import ModerationRecord
from games import services
from games.errors import ServiceError
from games.models import Game, GameEvent
from games.services.moderation import streams_close
from games.signals import DISCONNECT
from kingdom.routing import websocket_urlpatterns
from tests.community.moderation.helpers import Action, record_of
from tests.games.helpers import humans_game

pytestmark = pytest.mark.django_db(transaction=True)


def test_aborting_needs_a_reason_from_the_service_and_the_api(trio, mod):
    game = humans_game(trio[:2])
    waiting = services.table_create(user=trio[2], ruleset="kingdoms", seats=2)
    for row in (game, waiting):
        for reason in ("", "   "):
            with pytest.raises(ServiceError) as err:
                services.game_abort(game_id=row.id, staff_user=mod, reason=reason)
            assert (err.value.code, err.value.status) == ("reason_required", 400)
    client = APIClient()
    client.force_authenticate(mod)
    for body in ({}, {"reason": ""}, {"reason": "  "}):
        response = client.post(f"/api/tables/{game.id}/abort/", body, format="json")
        assert response.status_code == 400
        assert response.json()["code"] == "invalid" and "reason" in response.json()["message"]
    assert Game.objects.get(pk=game.id).status == Game.Status.ACTIVE
    assert Game.objects.get(pk=waiting.id).status == Game.Status.OPEN
    assert not GameEvent.objects.filter(type="game_aborted").exists()
    assert not ModerationRecord.objects.exists()
    response = client.post(f"/api/tables/{game.id}/abort/", {"reason": "bug"}, format="json")
    assert response.status_code == 200 and response.json()["status"] == "aborted"
    assert record_of(Action.ABORT).reason == "bug"


def test_closing_a_games_sockets_is_recorded_with_who_and_why(trio, mod, make_user):
    game = humans_game(trio[:2])
    client = APIClient()
    client.force_authenticate(make_user("staff", staff=True))
    url = f"/api/tables/{game.id}/disconnect/"
    refused = client.post(url, {"reason": "stuck"}, format="json")
    assert refused.status_code == 403 and refused.json()["code"]
    client.force_authenticate(mod)
    for body in ({}, {"reason": " "}):
        response = client.post(url, body, format="json")
        assert response.status_code == 400 and response.json()["code"] == "invalid"
    assert not ModerationRecord.objects.exists()
    response = client.post(url, {"reason": "clients stuck after the deploy"}, format="json")
    assert response.status_code == 200 and response.json() == {"closed": True}
    record = record_of(DISCONNECT)
    assert (record.moderator, record.moderator_name, record.game_id) == (mod, "mod", game.id)
    assert record.reason == "clients stuck after the deploy"
    missing = client.post(
        "/api/tables/00000000-0000-0000-0000-000000000000/disconnect/",
        {"reason": "x"},
        format="json",
    )
    assert missing.status_code == 404 and missing.json()["code"] == "not_found"


def test_closing_a_games_sockets_closes_them_after_the_record_is_stored(trio, mod):
    game = humans_game(trio[:2])
    app = URLRouter(websocket_urlpatterns)

    async def scenario():
        ws = WebsocketCommunicator(app, f"/ws/games/{game.id}/")
        ws.scope["user"] = trio[0]
        await ws.connect()
        await ws.receive_json_from(timeout=5)
        await sync_to_async(streams_close)(game_id=game.id, moderator=mod, reason="stuck")
        closed = await ws.receive_output(timeout=5)
        await ws.wait()
        return closed

    closed = async_to_sync(scenario)()
    assert closed == {"type": "websocket.close", "code": 4000}
    assert record_of(DISCONNECT).reason == "stuck"
