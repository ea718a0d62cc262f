"""A finished game's sockets are told when one of its players opens a rematch."""

from __future__ import annotations

import pytest
from asgiref.sync import async_to_sync, sync_to_async
from channels.routing import URLRouter
from channels.testing import WebsocketCommunicator

from games import services
from games.sockets.routing import websocket_urlpatterns
from tests.games.helpers import humans_game

pytestmark = pytest.mark.django_db(transaction=True)
app = URLRouter(websocket_urlpatterns)


def test_the_other_players_socket_is_told_of_the_rematch_and_its_host(make_user):
    ana, bo = make_user("ana"), make_user("bo")
    game = humans_game([ana, bo])
    services.game_resign(game_id=game.id, user=bo)  # the last player left wins: over

    async def scenario() -> tuple[dict, str]:
        ws = WebsocketCommunicator(app, f"/ws/games/{game.id}/?after=0")
        ws.scope["user"] = ana
        connected, _ = await ws.connect()
        assert connected
        first = await ws.receive_json_from(timeout=5)
        assert first["type"] == "events" and first["status"] == "finished"
        rematch = await sync_to_async(services.table_rematch)(game_id=game.id, user=bo)
        told = await ws.receive_json_from(timeout=5)
        await ws.disconnect()
        return told, str(rematch.id)

    told, rematch_id = async_to_sync(scenario)()
    assert told == {"type": "rematch", "rematch": {"id": rematch_id, "by": "bo"}}
