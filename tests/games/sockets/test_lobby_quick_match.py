"""The lobby socket and quick match: every open lobby hears the new counts when someone
starts or stops looking, and a player the match seated is told the table."""

from __future__ import annotations

import pytest
from asgiref.sync import async_to_sync, sync_to_async
from channels.routing import URLRouter
from channels.testing import WebsocketCommunicator

from games import services
from games.sockets.routing import websocket_urlpatterns

pytestmark = pytest.mark.django_db(transaction=True)
app = URLRouter(websocket_urlpatterns)


async def next_of(ws: WebsocketCommunicator, kind: str) -> dict:
    while True:
        message = await ws.receive_json_from(timeout=5)
        if message["type"] == kind:
            return message


def test_the_lobby_hears_the_counts_and_the_seated_player_the_table(make_user):
    ana, bob = make_user("ana"), make_user("bob")

    async def scenario() -> tuple[dict, dict, dict]:
        ws = WebsocketCommunicator(app, "/ws/lobby/")
        ws.scope["user"] = ana
        assert (await ws.connect())[0]
        await sync_to_async(services.quick_match_join)(user=ana, ruleset="kingdoms", seats=2)
        looking = await next_of(ws, "counts")
        await sync_to_async(services.quick_match_join)(user=bob, ruleset="kingdoms", seats=2)
        matched = await next_of(ws, "matched")
        after = await next_of(ws, "counts")
        await ws.disconnect()
        return looking, matched, after

    looking, matched, after = async_to_sync(scenario)()
    assert looking["counts"]["games"]["kingdoms"]["looking"] == 1
    table = services.quick_match_state(user=ana)["table"]
    assert matched == {"type": "matched", "table": table}
    assert after["counts"]["games"]["kingdoms"] == {"playing": 2, "looking": 0}


def test_closing_the_lobby_stops_looking_but_keeps_a_table_found(make_user):
    ana, bob, cy = make_user("ana"), make_user("bob"), make_user("cy")

    async def visit(user, then) -> None:
        ws = WebsocketCommunicator(app, "/ws/lobby/")
        ws.scope["user"] = user
        assert (await ws.connect())[0]
        await sync_to_async(then)()
        await ws.disconnect()

    def look(user, bots_after=None):
        return lambda: services.quick_match_join(
            user=user, ruleset="kingdoms", seats=2, bots_after=bots_after
        )

    async_to_sync(visit)(ana, look(ana, bots_after=30))
    assert services.quick_match_state(user=ana) == {"status": "idle"}
    # Nobody is seated with a player who left, nor against bots after their wait.
    assert services.quick_match_join(user=bob, ruleset="kingdoms", seats=2)["status"] == "waiting"
    async_to_sync(visit)(cy, look(cy))
    found = services.quick_match_state(user=cy)
    assert found["status"] == "matched"
    assert services.quick_match_state(user=bob) == found
