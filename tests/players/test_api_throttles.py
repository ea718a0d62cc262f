"""Rate limits: each limited endpoint, at a low rate set here, answers 429 with
``Retry-After`` and ``{"code": "throttled", "message"}`` once the limit is reached."""

from __future__ import annotations

import pytest
from asgiref.sync import async_to_sync
from channels.routing import URLRouter
from channels.testing import WebsocketCommunicator
from django.contrib.auth import get_user_model
from django.test import Client
from rest_framework.test import APIClient

from community.models import ChatMessage
from kingdom.routing import websocket_urlpatterns
from tests.conftest import needs_redis
from tests.games.helpers import humans_game

pytestmark = pytest.mark.django_db


@pytest.fixture
def rates(settings):
    """``rates(commands="2/min")``: those scopes limited so, the others as configured."""

    def set_rates(**scopes: str) -> None:
        config = settings.REST_FRAMEWORK
        limits = {**config["DEFAULT_THROTTLE_RATES"], **scopes}
        settings.REST_FRAMEWORK = {**config, "DEFAULT_THROTTLE_RATES": limits}

    return set_rates


def assert_throttled(response) -> None:
    assert response.status_code == 429
    assert int(response["Retry-After"]) > 0
    body = response.json()
    assert body["code"] == "throttled"
    assert body["message"]


def test_api_signup_is_limited_per_address(rates):
    rates(signup="2/hour")
    client = APIClient()
    for name in ("ana", "bob"):
        response = client.post(
            "/api/auth/signup/", {"username": name, "password": "pw-123456789"}, format="json"
        )
        assert response.status_code == 201
    third = client.post(
        "/api/auth/signup/", {"username": "cy", "password": "pw-123456789"}, format="json"
    )
    assert_throttled(third)
    assert not get_user_model().objects.filter(username="cy").exists()
    elsewhere = APIClient(REMOTE_ADDR="10.0.0.7").post(
        "/api/auth/signup/", {"username": "cy", "password": "pw-123456789"}, format="json"
    )
    assert elsewhere.status_code == 201


def test_signup_page_shares_the_signup_limit(client, rates):
    rates(signup="1/hour")
    form = {"username": "bo", "password1": "pw-long-enough-1", "password2": "pw-long-enough-1"}
    assert client.post("/accounts/signup/", form).status_code == 302
    response = Client().post("/accounts/signup/", {**form, "username": "cy"})
    assert response.status_code == 429
    assert int(response["Retry-After"]) > 0
    assert "Too many attempts" in response.content.decode()
    assert not get_user_model().objects.filter(username="cy").exists()


def test_token_requests_are_limited_even_with_the_right_password(make_user, rates):
    make_user("ana")
    rates(login="2/min")
    client = APIClient()
    for _ in range(2):
        wrong = client.post("/api/auth/token/", {"username": "ana", "password": "guess-1234"})
        assert wrong.status_code == 400
    assert_throttled(
        client.post("/api/auth/token/", {"username": "ana", "password": "pw-123456789"})
    )


def test_login_page_is_limited_per_address(client, make_user, rates):
    make_user("ana")
    rates(login="1/min")
    wrong = client.post("/accounts/login/", {"username": "ana", "password": "guess-1234"})
    assert wrong.status_code == 200
    response = client.post("/accounts/login/", {"username": "ana", "password": "pw-123456789"})
    assert response.status_code == 429
    assert int(response["Retry-After"]) > 0
    assert "Too many attempts" in response.content.decode()
    assert "_auth_user_id" not in client.session


def test_commands_are_limited_per_player_and_refusals_count(make_user, rates):
    ana, bob = make_user("ana"), make_user("bob")
    game = humans_game([ana, bob])
    rates(commands="2/min")
    clients = {}
    for user in (ana, bob):
        clients[user.username] = APIClient()
        clients[user.username].force_authenticate(user)
    url = f"/api/tables/{game.id}/commands/"
    bogus = {"command": {"type": "no_such_command"}}
    for _ in range(2):
        assert clients["ana"].post(url, bogus, format="json").status_code == 400
    assert_throttled(clients["ana"].post(url, bogus, format="json"))
    assert clients["bob"].post(url, bogus, format="json").status_code == 400, "per player"
    assert clients["ana"].get(f"/api/tables/{game.id}/legal/").status_code == 200, "reads"


def test_chat_posts_are_limited_and_reading_is_not(make_user, rates):
    ana, bob = make_user("ana"), make_user("bob")
    game = humans_game([ana, bob])
    rates(chat="2/min")
    client = APIClient()
    client.force_authenticate(ana)
    url = f"/api/tables/{game.id}/chat/"
    for body in ("hello", "good luck"):
        assert client.post(url, {"body": body}, format="json").status_code == 201
    assert_throttled(client.post(url, {"body": "spam"}, format="json"))
    assert client.get(url).status_code == 200
    assert ChatMessage.objects.filter(game=game).count() == 2


@pytest.mark.django_db(transaction=True)
def test_chat_socket_shares_the_chat_limit(make_user, rates):
    ana, bob = make_user("ana"), make_user("bob")
    game = humans_game([ana, bob])
    rates(chat="1/min")
    client = APIClient()
    client.force_authenticate(ana)
    assert (
        client.post(f"/api/tables/{game.id}/chat/", {"body": "hi"}, format="json").status_code
        == 201
    )

    async def scenario() -> dict:
        ws = WebsocketCommunicator(URLRouter(websocket_urlpatterns), f"/ws/games/{game.id}/chat/")
        ws.scope["user"] = ana
        await ws.connect()
        await ws.receive_json_from(timeout=5)  # the history
        await ws.send_json_to({"type": "say", "body": "spam"})
        reply = await ws.receive_json_from(timeout=5)
        await ws.disconnect()
        return reply

    reply = async_to_sync(scenario)()
    assert reply["type"] == "error"
    assert reply["code"] == "throttled" and reply["retry_after"] > 0
    assert ChatMessage.objects.filter(game=game).count() == 1


@needs_redis
def test_concurrent_writes_of_one_player_are_each_counted_once(make_user, rates):
    # Counted in Redis in one round trip each: requests racing in threads cannot both
    # read the same history and pass, and the refused ones do not count.
    from concurrent.futures import ThreadPoolExecutor
    from types import SimpleNamespace

    from players.throttles import ScopedWriteThrottle

    ana = make_user("ana")
    rates(commands="5/min")
    request = SimpleNamespace(method="POST", user=ana, META={})
    view = SimpleNamespace(throttle_scope="commands")
    ScopedWriteThrottle.cache.delete(f"throttle:commands:user-{ana.pk}")

    def one(_: int) -> bool:
        return ScopedWriteThrottle().allow_request(request, view)

    with ThreadPoolExecutor(8) as pool:
        allowed = list(pool.map(one, range(16)))
    assert allowed.count(True) == 5
    refused = ScopedWriteThrottle()
    assert refused.allow_request(request, view) is False
    assert 55 <= refused.wait() <= 60


def _writes(user, scope: str, count: int) -> list[bool]:
    """``count`` writes of ``user`` in ``scope`` through the configured throttle."""
    from types import SimpleNamespace

    from players.throttles import ScopedWriteThrottle

    request = SimpleNamespace(method="POST", user=user, META={})
    view = SimpleNamespace(throttle_scope=scope)
    return [ScopedWriteThrottle().allow_request(request, view) for _ in range(count)]


def _counted(user, scope: str) -> int:
    """How many of ``user``'s requests in ``scope`` Redis holds in its window."""
    from infra.cache import redis_client
    from players.throttles import ScopedWriteThrottle

    key = ScopedWriteThrottle.cache.make_and_validate_key(f"throttle:{scope}:user-{user.pk}")
    return redis_client().zcard(key)


@needs_redis
def test_a_fast_rate_counts_every_request_in_redis_and_stops_at_its_limit(make_user, rates):
    from players.throttles import ScopedWriteThrottle

    ana = make_user("ana")
    rates(commands="120/min")
    ScopedWriteThrottle.cache.delete(f"throttle:commands:user-{ana.pk}")
    assert _writes(ana, "commands", 130) == [True] * 120 + [False] * 10
    assert _counted(ana, "commands") == 120
