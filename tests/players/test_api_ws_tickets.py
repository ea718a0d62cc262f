"""WebSocket tickets: an API client (a token, no session cookie) opens a socket as itself
with a single-use ticket; a bad ticket is closed with 4401, never served as a spectator.

The sockets go through the deployed stack (``kingdom.asgi.application``): the Origin
check and the session cookie for browsers, the ticket for the others.
"""

from __future__ import annotations

from typing import Any

import pytest
from asgiref.sync import async_to_sync
from channels.testing import WebsocketCommunicator
from django.conf import settings
from django.test import Client
from rest_framework.test import APIClient

from community import services
from community.models import ChatMessage
from kingdom.asgi import application
from players.tickets import INVALID_TICKET
from tests.games.helpers import humans_game, make_moderator

pytestmark = pytest.mark.django_db(transaction=True)


def ticket_for(token: str) -> dict[str, Any]:
    """As docs/api.md's ``curl -X POST -H "Authorization: Token ..." .../ws-ticket/``."""
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {token}")
    response = client.post("/api/auth/ws-ticket/")
    assert response.status_code == 201
    return response.json()


def token_of(username: str) -> str:
    response = APIClient().post(
        "/api/auth/token/", {"username": username, "password": "pw-123456789"}
    )
    return response.json()["token"]


def first_frames(path: str, headers: list | None = None, send: dict | None = None) -> dict:
    """Connect as a client without a browser would (no Origin unless given), read the
    first frame, optionally send one and read the answer, and report the close code."""

    async def scenario() -> dict:
        ws = WebsocketCommunicator(application, path, headers=headers or [])
        connected, code = await ws.connect()
        if not connected:
            return {"connected": False, "code": code}
        first = await ws.receive_json_from(timeout=5)
        answer = None
        if send is not None:
            await ws.send_json_to(send)
            answer = await ws.receive_json_from(timeout=5)
        closed = await ws.receive_output(timeout=5) if first.get("type") == "error" else None
        await ws.disconnect()
        return {"connected": True, "first": first, "answer": answer, "closed": closed}

    return async_to_sync(scenario)()


@pytest.fixture
def seated_game(make_user):
    ana, bob = make_user("ana"), make_user("bob")
    game = humans_game([ana, bob])
    return game, game.seats.get(user=ana).number


def test_a_ticket_gives_an_api_client_its_seat_on_the_game_stream(seated_game):
    game, seat = seated_game
    ticket = ticket_for(token_of("ana"))
    assert ticket["expires_in"] == settings.WS_TICKET_SECONDS == 30
    result = first_frames(f"/ws/games/{game.id}/?ticket={ticket['ticket']}")
    assert result["connected"]
    assert result["first"]["type"] == "events"
    assert result["first"]["your_seat"] == seat


def test_a_ticket_is_good_once(seated_game):
    game, _ = seated_game
    ticket = ticket_for(token_of("ana"))["ticket"]
    path = f"/ws/games/{game.id}/?ticket={ticket}"
    assert first_frames(path)["first"]["your_seat"] is not None
    again = first_frames(path)
    assert again["first"]["code"] == "invalid_ticket"
    assert again["closed"] == {"type": "websocket.close", "code": INVALID_TICKET}


@pytest.mark.parametrize("ticket", ["not-a-ticket", ""])
def test_an_unknown_ticket_is_closed_not_served_as_a_spectator(seated_game, ticket):
    game, _ = seated_game
    result = first_frames(f"/ws/games/{game.id}/?ticket={ticket}")
    assert result["first"]["type"] == "error"
    assert result["closed"]["code"] == INVALID_TICKET


def test_an_expired_ticket_is_closed(seated_game, settings):
    game, _ = seated_game
    settings.WS_TICKET_SECONDS = 0  # a cache entry with no lifetime: expired at once
    ticket = ticket_for(token_of("ana"))["ticket"]
    result = first_frames(f"/ws/games/{game.id}/?ticket={ticket}")
    assert result["closed"]["code"] == INVALID_TICKET


def test_a_ticket_of_an_account_banned_since_is_closed(seated_game, make_user):
    game, _ = seated_game
    ticket = ticket_for(token_of("ana"))["ticket"]
    moderator = make_moderator(make_user("mo", staff=True))
    ana = game.seats.get(user__username="ana").user
    services.account_ban(player=ana, moderator=moderator, reason="cheating")
    result = first_frames(f"/ws/games/{game.id}/?ticket={ticket}")
    assert result["closed"]["code"] == INVALID_TICKET


def test_a_ticket_lets_an_api_client_chat_as_itself(seated_game):
    game, _ = seated_game
    ticket = ticket_for(token_of("ana"))["ticket"]
    result = first_frames(
        f"/ws/games/{game.id}/chat/?ticket={ticket}", send={"type": "say", "body": "gl hf"}
    )
    assert result["first"]["type"] == "history"
    assert result["answer"]["message"]["body"] == "gl hf"
    assert ChatMessage.objects.get(game=game).author.username == "ana"


def test_without_a_ticket_a_socket_needs_an_allowed_origin(seated_game):
    game, _ = seated_game
    assert not first_frames(f"/ws/games/{game.id}/")["connected"]
    evil = [(b"origin", b"https://evil.example")]
    assert not first_frames(f"/ws/games/{game.id}/", headers=evil)["connected"]


def test_a_browser_is_its_session_with_an_allowed_origin(seated_game):
    game, seat = seated_game
    browser = Client()
    browser.force_login(game.seats.get(number=seat).user)
    cookie = browser.cookies[settings.SESSION_COOKIE_NAME].value
    headers = [
        (b"origin", b"http://testserver"),
        (b"host", b"testserver"),
        (b"cookie", f"{settings.SESSION_COOKIE_NAME}={cookie}".encode()),
    ]
    result = first_frames(f"/ws/games/{game.id}/", headers=headers)
    assert result["first"]["your_seat"] == seat
