"""Redis down (the rate limits, the WebSocket tickets): every write that needs it is
answered 503 ``{"code": "unavailable"}`` with ``Retry-After``, never a 500."""

from __future__ import annotations

import pytest
from asgiref.sync import async_to_sync
from channels.testing import WebsocketCommunicator
from django.test import Client
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from games.api.throttling import refuse_if_throttled
from games.errors import ServiceError
from games.models import GameEvent
from kingdom.asgi import application
from players import tickets
from tests.games.helpers import humans_game
from tests.production.processes import free_port

pytestmark = pytest.mark.django_db


@pytest.fixture
def redis_down(settings):
    """The cache on a Redis nobody listens on (refused at once, as a stopped server)."""
    settings.CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.redis.RedisCache",
            "LOCATION": f"redis://127.0.0.1:{free_port()}/0",
            "KEY_PREFIX": "down",
            "OPTIONS": {"pool_class": "infra.cache.SharedConnectionPool"},
        }
    }


def assert_unavailable(response) -> None:
    assert response.status_code == 503
    assert int(response["Retry-After"]) > 0
    assert response.json()["code"] == "unavailable"
    assert response.json()["message"]


def test_a_move_is_a_503_not_a_500_when_the_rate_limit_cannot_be_counted(make_user, redis_down):
    ana, bob = make_user("ana"), make_user("bob")
    game = humans_game([ana, bob])
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {Token.objects.create(user=ana).key}")
    legal = client.get(f"/api/tables/{game.id}/legal/").json()
    seat = game.seats.get(user=ana).number
    mover = client if legal["commands"] else APIClient()
    if not legal["commands"]:
        mover.credentials(HTTP_AUTHORIZATION=f"Token {Token.objects.create(user=bob).key}")
        legal = mover.get(f"/api/tables/{game.id}/legal/").json()
    assert legal["commands"], f"neither seat may act (ana is seat {seat})"
    head = game.head_seq
    response = mover.post(
        f"/api/tables/{game.id}/commands/",
        {"command": legal["commands"][0], "expected_seq": legal["seq"]},
        format="json",
    )
    assert_unavailable(response)
    assert GameEvent.objects.filter(game=game).count() == head


def test_a_token_request_is_a_503(make_user, redis_down):
    make_user("ana")
    response = APIClient().post(
        "/api/auth/token/", {"username": "ana", "password": "pw-123456789"}, format="json"
    )
    assert_unavailable(response)


def test_a_ws_ticket_request_is_a_503(make_user, redis_down):
    client = APIClient()
    client.force_authenticate(make_user("ana"))
    assert_unavailable(client.post("/api/auth/ws-ticket/"))


def test_the_login_page_is_an_html_503(make_user, redis_down):
    make_user("ana")
    response = Client(raise_request_exception=False).post(
        "/accounts/login/", {"username": "ana", "password": "pw-123456789"}
    )
    assert response.status_code == 503
    assert int(response["Retry-After"]) > 0


def test_a_socket_write_is_refused_as_unavailable(make_user, redis_down):
    with pytest.raises(ServiceError) as refused:
        refuse_if_throttled("commands", make_user("ana"))
    assert refused.value.status == 503
    assert refused.value.as_json()["code"] == "unavailable"
    assert refused.value.as_json()["retry_after"] > 0


@pytest.mark.django_db(transaction=True)
def test_a_socket_whose_ticket_cannot_be_looked_up_is_told_to_try_again_later(
    make_user, redis_down
):
    game = humans_game([make_user("ana"), make_user("bob")])

    async def scenario() -> tuple[dict, dict]:
        ws = WebsocketCommunicator(application, f"/ws/games/{game.id}/?ticket=some-ticket")
        connected, _ = await ws.connect()
        assert connected
        first = await ws.receive_json_from(timeout=5)
        closed = await ws.receive_output(timeout=5)
        await ws.disconnect()
        return first, closed

    first, closed = async_to_sync(scenario)()
    assert first["code"] == "unavailable"
    assert closed == {"type": "websocket.close", "code": tickets.TRY_AGAIN_LATER}


@pytest.mark.django_db(transaction=True)
def test_a_game_socket_whose_channel_layer_is_down_is_told_to_try_again_later(make_user, settings):
    from infra.channel_layer import redis_channel_layer

    game = humans_game([make_user("ana"), make_user("bob")])
    down = f"redis://127.0.0.1:{free_port()}/0"
    settings.CHANNEL_LAYERS = {"default": redis_channel_layer(down, "pubsub")}

    async def scenario() -> tuple[dict, dict]:
        ws = WebsocketCommunicator(
            application, f"/ws/games/{game.id}/", headers=[(b"origin", b"http://127.0.0.1")]
        )
        connected, _ = await ws.connect(timeout=10)
        assert connected
        first = await ws.receive_json_from(timeout=5)
        closed = await ws.receive_output(timeout=5)
        await ws.disconnect()
        return first, closed

    first, closed = async_to_sync(scenario)()
    assert first["code"] == "unavailable"
    assert closed == {"type": "websocket.close", "code": tickets.TRY_AGAIN_LATER}
