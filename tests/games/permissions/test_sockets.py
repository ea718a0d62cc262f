"""Every role against the WebSocket endpoints: the game stream, the chat, the lobby."""

from __future__ import annotations

import json

import pytest
from asgiref.sync import async_to_sync, sync_to_async
from channels.auth import AuthMiddlewareStack
from channels.routing import URLRouter
from channels.testing import WebsocketCommunicator
from django.conf import settings

from community import services as community_services
from community.models import ChatMessage, Report
from games import selectors, services
from games.models import Game
from kingdom.routing import websocket_urlpatterns
from tests.games.permissions.helpers import ROLES, SEATED, World, fill, web_client

pytestmark = pytest.mark.django_db


# As deployed (kingdom/asgi.py): the session cookie decides who a socket belongs to.
ws_app = AuthMiddlewareStack(URLRouter(websocket_urlpatterns))


def socket(world: World, role: str, path: str) -> WebsocketCommunicator:
    """A socket opened with ``role``'s session cookie, through the deployed auth stack."""
    headers = []
    if role != "anonymous":
        client = web_client(world, role)
        cookie = client.cookies[settings.SESSION_COOKIE_NAME].value
        headers = [(b"cookie", f"{settings.SESSION_COOKIE_NAME}={cookie}".encode())]
    return WebsocketCommunicator(ws_app, fill(path, world), headers=headers)


def seat_of(world: World, role: str) -> int | None:
    if role not in SEATED:
        return None
    return world.game.seats.get(user=world.users[role]).number


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("role", ROLES)
def test_game_stream_by_role_sends_only_the_roles_own_seat(world, role):
    expected_seat = seat_of(world, role)
    expected_view = selectors.game_view(world.game, expected_seat)["state"]

    ws = socket(world, role, "/ws/games/{game}/?after=0")

    async def scenario():
        connected, _ = await ws.connect()
        assert connected, "anyone may watch a game"
        first = await ws.receive_json_from(timeout=5)
        await ws.send_json_to({"type": "ping"})
        pong = await ws.receive_json_from(timeout=5)
        await ws.disconnect()
        return first, pong

    first, pong = async_to_sync(scenario)()
    assert first["your_seat"] == expected_seat
    assert first["view"] == expected_view, "redacted for this viewer, nobody else's secrets"
    assert [e["seq"] for e in first["events"]] == list(range(1, world.game.head_seq + 1))
    if expected_seat is None:
        assert first["legal"] == [], "no commands for a seat one does not hold"
    assert pong == {"type": "pong", "head": world.game.head_seq}


# What a chat socket answers to "say" and "report", per role (the type or the error code).
CHAT_SAY = {**{role: "message" for role in ROLES}, "anonymous": "not_authenticated",
            "banned": "not_authenticated", "muted": "muted"}  # fmt: skip
# A muted player may still report a message to the moderators.
CHAT_REPORT = {**{role: "reported" for role in ROLES}, "anonymous": "not_authenticated",
               "banned": "not_authenticated"}  # fmt: skip


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("role", ROLES)
def test_chat_socket_by_role(world, role):
    ws = socket(world, role, "/ws/games/{game}/chat/")

    async def scenario():
        connected, _ = await ws.connect()
        assert connected, "anyone may read a table's chat"
        history = await ws.receive_json_from(timeout=5)
        await ws.send_json_to({"type": "say", "body": f"hi from {role}"})
        said = await ws.receive_json_from(timeout=5)
        await ws.send_json_to({"type": "report", "message": world.message.pk, "reason": "x"})
        reported = await ws.receive_json_from(timeout=5)
        await ws.disconnect()
        return history, said, reported

    history, said, reported = async_to_sync(scenario)()
    assert [m["body"] for m in history["messages"]] == ["hello all"]
    for answer, expected in ((said, CHAT_SAY[role]), (reported, CHAT_REPORT[role])):
        if answer["type"] == "error":
            assert answer["code"] == expected and answer["message"]
        else:
            assert answer["type"] == expected
    said_lines = ChatMessage.objects.filter(body=f"hi from {role}")
    assert said_lines.exists() == (CHAT_SAY[role] == "message")
    if CHAT_SAY[role] == "message":
        assert said["message"]["author"] == world.users[role].username
    reporters = {world.users["other_player"].pk}  # the world's own report
    if CHAT_REPORT[role] == "reported":
        reporters.add(world.users[role].pk)
    assert set(Report.objects.values_list("reporter", flat=True)) == reporters
    if CHAT_REPORT[role] == "reported":
        report = Report.objects.get(pk=reported["message"])
        assert (report.reporter, report.message) == (world.users[role], world.message)


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("role", ROLES)
def test_lobby_socket_by_role_tells_of_new_tables(world, role):
    ws = socket(world, role, "/ws/lobby/")

    async def scenario():
        connected, _ = await ws.connect()
        assert connected, "anyone may watch the lobby"
        game = await sync_to_async(services.table_create)(
            user=world.users["third"], ruleset="kingdoms", seats=2
        )
        news = await ws.receive_json_from(timeout=5)
        if news["type"] == "turns":  # first, to a signed-in player: their games' turns
            news = await ws.receive_json_from(timeout=5)
        await ws.disconnect()
        return game, news

    game, news = async_to_sync(scenario)()
    assert news["type"] == "table" and news["table"]["id"] == str(game.id)


@pytest.mark.django_db(transaction=True)
def test_a_banned_player_who_held_a_seat_watches_the_game_as_a_spectator(world):
    """Banned after the game: the old session no longer opens a stream as the seat."""
    player = world.users["other_player"]
    seat = seat_of(world, "other_player")
    community_services.account_ban(
        player=player, moderator=world.users["moderator"], reason="cheat"
    )
    world.users["gone"] = player

    ws = socket(world, "gone", "/ws/games/{game}/?after=0")

    async def scenario():
        await ws.connect()
        first = await ws.receive_json_from(timeout=5)
        await ws.disconnect()
        return first

    first = async_to_sync(scenario)()
    game = Game.objects.get(pk=world.game.id)
    assert seat is not None and first["your_seat"] is None
    assert first["view"] == selectors.game_view(game, None)["state"]


@pytest.mark.django_db(transaction=True)
def test_an_open_game_stream_stops_sending_seat_secrets_once_its_player_is_banned(world):
    player = world.users["other_player"]
    seat = seat_of(world, "other_player")

    ws = socket(world, "other_player", "/ws/games/{game}/?after=0")

    async def scenario():
        await ws.connect()
        before = await ws.receive_json_from(timeout=5)
        await sync_to_async(community_services.account_ban)(
            player=player, moderator=world.users["moderator"], reason="cheat"
        )
        after = []  # every frame until the deactivated account's socket closes
        while (output := await ws.receive_output(timeout=5))["type"] == "websocket.send":
            after.append(json.loads(output["text"]))
        return before, after, output

    before, after, closed = async_to_sync(scenario)()
    assert before["your_seat"] == seat
    assert closed == {"type": "websocket.close", "code": 4401}
    assert all(frame["your_seat"] is None for frame in after)
