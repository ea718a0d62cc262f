"""A socket stands for what it was opened as: a logout closes the sockets its browser
session opened (a tab left open can no longer move or chat as the player), and revoking
an API token closes the sockets opened with its tickets. Other sessions of the same
player, and anonymous sockets, stay open. Through the deployed stack
(``kingdom.asgi.application``), as tests/players/test_api_ws_tickets.py."""

from __future__ import annotations

import pytest
from asgiref.sync import async_to_sync, sync_to_async
from channels.testing import WebsocketCommunicator
from django.conf import settings
from django.test import Client
from rest_framework.test import APIClient

from games.sockets.guard import SIGNED_OUT
from kingdom.asgi import application
from tests.games.helpers import humans_game
from tests.players.test_api_ws_tickets import ticket_for, token_of

pytestmark = pytest.mark.django_db(transaction=True)


def browser_headers(browser: Client) -> list[tuple[bytes, bytes]]:
    cookie = browser.cookies[settings.SESSION_COOKIE_NAME].value
    return [
        (b"origin", b"http://testserver"),
        (b"host", b"testserver"),
        (b"cookie", f"{settings.SESSION_COOKIE_NAME}={cookie}".encode()),
    ]


async def opened(path: str, headers: list | None = None) -> WebsocketCommunicator:
    ws = WebsocketCommunicator(application, path, headers=headers or [])
    connected, _ = await ws.connect()
    assert connected
    await ws.receive_json_from(timeout=5)  # the first frame: events, or the chat's history
    return ws


async def close_code(ws: WebsocketCommunicator) -> int | None:
    """The code the server closed ``ws`` with, or None if it stays open (and is closed
    here)."""
    while not await ws.receive_nothing(timeout=1):
        output = await ws.receive_output()
        if output["type"] == "websocket.close":
            return output.get("code")
    await ws.disconnect()
    return None


@pytest.fixture
def game(make_user):
    return humans_game([make_user("ana"), make_user("bob")])


def test_a_logout_closes_the_sockets_of_that_session_only(game):
    ana = game.seats.get(user__username="ana").user
    tab, phone = Client(), Client()
    tab.force_login(ana)
    phone.force_login(ana)

    async def scenario() -> list[int | None]:
        stream = await opened(f"/ws/games/{game.id}/", browser_headers(tab))
        chat = await opened(f"/ws/games/{game.id}/chat/", browser_headers(tab))
        other_session = await opened(f"/ws/games/{game.id}/", browser_headers(phone))
        watcher = await opened(
            f"/ws/games/{game.id}/", [(b"origin", b"http://testserver"), (b"host", b"testserver")]
        )
        await sync_to_async(tab.post)("/accounts/logout/")
        return [await close_code(ws) for ws in (stream, chat, other_session, watcher)]

    assert async_to_sync(scenario)() == [SIGNED_OUT, SIGNED_OUT, None, None]


def test_revoking_a_token_closes_the_sockets_opened_with_its_tickets(game):
    token = token_of("ana")
    tickets = [ticket_for(token)["ticket"] for _ in range(2)]
    tab = Client()
    tab.force_login(game.seats.get(user__username="ana").user)

    async def scenario() -> list[int | None]:
        api_stream = await opened(f"/ws/games/{game.id}/?ticket={tickets[0]}")
        api_chat = await opened(f"/ws/games/{game.id}/chat/?ticket={tickets[1]}")
        browser = await opened(f"/ws/games/{game.id}/", browser_headers(tab))
        client = APIClient()
        client.credentials(HTTP_AUTHORIZATION=f"Token {token}")
        response = await sync_to_async(client.post)("/api/auth/token/revoke/")
        assert response.status_code == 204
        return [await close_code(ws) for ws in (api_stream, api_chat, browser)]

    assert async_to_sync(scenario)() == [SIGNED_OUT, SIGNED_OUT, None]
