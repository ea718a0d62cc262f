"""What a socket may no longer do, through the deployed stack (``kingdom.asgi.application``):
move as a deactivated account, open a stream with a ticket whose token or session ended,
flood the server with frames, or act as a player's session from another origin."""

from __future__ import annotations

import pytest
from asgiref.sync import async_to_sync, sync_to_async
from channels.testing import WebsocketCommunicator
from django.conf import settings
from django.test import Client

from games.models import Game
from games.sockets.guard import FRAME_BURST, SIGNED_OUT, TOO_FAST
from kingdom.asgi import application
from players.tickets import INVALID_TICKET
from tests.games.helpers import humans_game, to_act
from tests.players.test_api_ws_tickets import ticket_for, token_of

pytestmark = pytest.mark.django_db(transaction=True)


def session_headers(browser: Client, origin: str = "http://testserver") -> list:
    cookie = browser.cookies[settings.SESSION_COOKIE_NAME].value
    return [
        (b"host", b"testserver"),
        (b"origin", origin.encode()),
        (b"cookie", f"{settings.SESSION_COOKIE_NAME}={cookie}".encode()),
    ]


async def open_stream(path: str, headers: list) -> tuple[WebsocketCommunicator, dict]:
    ws = WebsocketCommunicator(application, path, headers=headers)
    connected, _ = await ws.connect()
    assert connected
    return ws, await ws.receive_json_from(timeout=5)


async def closed_with(ws: WebsocketCommunicator) -> int | None:
    while not await ws.receive_nothing(timeout=1):
        output = await ws.receive_output()
        if output["type"] == "websocket.close":
            return output.get("code")
    await ws.disconnect()
    return None


@pytest.fixture
def game(make_user) -> Game:
    return humans_game([make_user("ana"), make_user("bob")])


def seated_mover(game: Game):
    (seat,) = to_act(game)
    return game.seats.get(number=seat).user


def deactivate_by_save(user) -> None:
    type(user).objects.filter(pk=user.pk).update(is_active=True)
    user.is_active = False
    user.save()


def test_a_deactivated_accounts_open_socket_cannot_move_and_is_closed(game):
    mover = seated_mover(game)
    browser = Client()
    browser.force_login(mover)

    async def scenario() -> tuple[dict, int | None]:
        ws, first = await open_stream(f"/ws/games/{game.id}/", session_headers(browser))
        command = first["legal"][0]
        # Deactivated without a save signal (a bulk update): the write path still refuses.
        await sync_to_async(type(mover).objects.filter(pk=mover.pk).update)(is_active=False)
        await ws.send_json_to({"type": "command", "command": command, "ref": 1})
        refused = await ws.receive_json_from(timeout=5)
        # Deactivated by a save (the admin's checkbox, a ban): the socket closes too.
        await sync_to_async(deactivate_by_save)(mover)
        return refused, await closed_with(ws)

    head = game.head_seq
    refused, code = async_to_sync(scenario)()
    assert (refused["type"], refused["status"], refused["code"]) == (
        "error",
        403,
        "account_inactive",
    )
    game.refresh_from_db()
    assert game.head_seq == head
    assert code == SIGNED_OUT


def test_a_ticket_minted_before_its_token_was_revoked_opens_nothing(game):
    token = token_of("ana")
    ticket = ticket_for(token)["ticket"]
    from rest_framework.test import APIClient

    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {token}")
    assert client.post("/api/auth/token/revoke/").status_code == 204

    async def scenario() -> tuple[dict, int | None]:
        ws = WebsocketCommunicator(application, f"/ws/games/{game.id}/?ticket={ticket}")
        connected, _ = await ws.connect()
        assert connected
        return await ws.receive_json_from(timeout=5), await closed_with(ws)

    frame, code = async_to_sync(scenario)()
    assert frame["code"] == "invalid_ticket" and code == INVALID_TICKET


def test_a_ticket_minted_by_a_session_that_logged_out_opens_nothing(game):
    browser = Client()
    browser.force_login(game.seats.get(user__username="ana").user)
    ticket = browser.post("/api/auth/ws-ticket/", HTTP_ORIGIN="http://testserver").json()
    browser.post("/accounts/logout/")

    async def scenario() -> int | None:
        ws = WebsocketCommunicator(application, f"/ws/games/{game.id}/?ticket={ticket['ticket']}")
        connected, _ = await ws.connect()
        assert connected
        await ws.receive_json_from(timeout=5)
        return await closed_with(ws)

    assert async_to_sync(scenario)() == INVALID_TICKET


def test_a_socket_that_floods_frames_is_closed(game):
    async def scenario() -> int | None:
        ws, _ = await open_stream(
            f"/ws/games/{game.id}/", [(b"host", b"testserver"), (b"origin", b"http://testserver")]
        )
        for _ in range(int(FRAME_BURST) + 20):
            await ws.send_to(text_data='{"type": "ping"}')
        return await closed_with(ws)

    assert async_to_sync(scenario)() == TOO_FAST


@pytest.mark.parametrize(
    "origin", ["http://testserver:9", "https://testserver", "http://evil.example", ""]
)
def test_a_session_socket_from_another_origin_is_refused(game, origin):
    browser = Client()
    browser.force_login(game.seats.get(user__username="ana").user)
    headers = session_headers(browser, origin)
    if not origin:
        headers = [h for h in headers if h[0] != b"origin"]

    async def scenario() -> bool:
        ws = WebsocketCommunicator(application, f"/ws/games/{game.id}/", headers=headers)
        connected, _ = await ws.connect()
        await ws.disconnect()
        return connected

    assert async_to_sync(scenario)() is False


def test_a_session_socket_from_the_sites_own_origin_is_the_player(game):
    ana = game.seats.get(user__username="ana").user
    browser = Client()
    browser.force_login(ana)

    async def scenario() -> dict:
        ws, first = await open_stream(f"/ws/games/{game.id}/", session_headers(browser))
        await ws.disconnect()
        return first

    assert async_to_sync(scenario)()["your_seat"] == game.seats.get(user=ana).number
