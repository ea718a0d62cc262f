"""games/api/command_route.py: an API client's move answered before Django's request gets
the answer Django's view gives (status, body, headers), takes the one write path, and
leaves every other request, and every refusal before the write, to Django."""

from __future__ import annotations

import json
import uuid
from typing import Any

import pytest
from asgiref.sync import async_to_sync
from channels.testing import HttpCommunicator
from django.core.cache import cache
from rest_framework.authtoken.models import Token

from games import selectors
from games.api import command_route
from games.models import Game, GameEvent
from kingdom.ops.threading import get_asgi_application
from tests.games.helpers import humans_game, to_act

pytestmark = pytest.mark.django_db(transaction=True)
# Differ from request to request whichever way it is answered.
OWN_HEADERS = {"x-request-id", "content-length"}


class Recorded:
    """Django's ASGI application, noting each request the route passed on."""

    def __init__(self) -> None:
        self.django = get_asgi_application()
        self.passed: list[str] = []

    async def __call__(self, scope, receive, send) -> None:
        self.passed.append(scope["path"])
        await self.django(scope, receive, send)


@pytest.fixture
def apps() -> tuple[command_route.CommandRoute, Recorded]:
    django = Recorded()
    return command_route.CommandRoute(django), django


@pytest.fixture
def table(make_user) -> dict[str, Any]:
    users = [make_user("ana"), make_user("bob")]
    game = humans_game(users)
    return {"game": game, "users": users, "keys": [Token.objects.create(user=u).key for u in users]}


def post(
    application,
    game_id: Any,
    key: str | None,
    body: Any,
    headers: dict[str, str] | None = None,
    query: str = "",
) -> dict[str, Any]:
    """POST a command through ``application``: status, headers (lowercase names) and the
    JSON answer."""
    content = body if isinstance(body, bytes) else json.dumps(body).encode()
    sent = {
        "host": "testserver",
        "content-type": "application/json",
        "content-length": str(len(content)),
        **({"authorization": f"Token {key}"} if key else {}),
        **(headers or {}),
    }

    async def request() -> dict[str, Any]:
        communicator = HttpCommunicator(
            application,
            "POST",
            f"/api/tables/{game_id}/commands/",
            body=content,
            headers=[(k.encode(), v.encode()) for k, v in sent.items()],
        )
        communicator.scope["query_string"] = query.encode()
        response = await communicator.get_response(timeout=30)
        await communicator.wait(timeout=30)
        return response

    response = async_to_sync(request)()
    names = [name.decode().lower() for name, _ in response["headers"]]
    assert len(names) == len(set(names)), f"a header twice: {names}"
    headers = {k.decode().lower(): v.decode() for k, v in response["headers"]}
    body = response["body"]
    return {
        "status": response["status"],
        "headers": headers,
        "json": json.loads(body) if "json" in headers.get("content-type", "") else body,
    }


def both_ways(apps, *args, **kwargs) -> tuple[dict, dict]:
    """The same request through the route and through Django alone."""
    route, django = apps
    return post(route, *args, **kwargs), post(django.django, *args, **kwargs)


def same_answer(route: dict, django: dict) -> None:
    assert route["status"] == django["status"]
    assert route["json"] == django["json"]
    mine = {k: v for k, v in route["headers"].items() if k not in OWN_HEADERS}
    theirs = {k: v for k, v in django["headers"].items() if k not in OWN_HEADERS}
    assert mine == theirs


def mover(table: dict) -> tuple[int, dict]:
    """The index of the user to act and a legal command of theirs."""
    game: Game = table["game"]
    game.refresh_from_db()
    (seat,) = to_act(game)
    user = game.seats.get(number=seat).user
    return table["users"].index(user), selectors.legal_commands(game, seat)[0]


def head(game: Game) -> int:
    return GameEvent.objects.filter(game=game).count()


def test_a_move_is_answered_by_the_route_as_the_view_answers_it(apps, table, api):
    route, django = apps
    game = table["game"]
    answers = []
    for application in (route, django.django, route):
        index, command = mover(table)
        before = game.head_seq
        answer = post(application, game.id, table["keys"][index], {"command": command})
        assert answer["status"] == 201
        # The answer's events are the mover's redacted events, as the REST read gives them.
        reader = api(f"reader{len(answers)}")
        reader.force_authenticate(table["users"][index])
        read = reader.get(f"/api/tables/{game.id}/events/", {"after": before}).json()
        assert answer["json"]["events"] == read["events"]
        assert answer["json"]["head_seq"] == read["events"][-1]["seq"]
        game.refresh_from_db()
        assert game.head_seq == answer["json"]["head_seq"]
        answers.append(answer)
    assert django.passed == [], "the plain move is the route's"
    same_answer({**answers[0], "json": {}}, {**answers[1], "json": {}})
    assert answers[0]["headers"]["x-request-id"] != answers[2]["headers"]["x-request-id"]


def test_a_retried_command_id_gets_the_same_answer_both_ways(apps, table):
    index, command = mover(table)
    body = {"command": command, "command_id": str(uuid.uuid4())}
    first = post(apps[0], table["game"].id, table["keys"][index], body)
    route, django = both_ways(apps, table["game"].id, table["keys"][index], body)
    assert (first["status"], route["status"]) == (201, 200)
    assert route["json"]["replayed"] is True
    assert route["json"]["events"] == first["json"]["events"]
    same_answer(route, django)
    assert apps[1].passed == []


def test_refusals_of_the_write_get_the_views_answer_and_change_nothing(apps, table):
    game = table["game"]
    index, command = mover(table)
    key, other = table["keys"][index], table["keys"][1 - index]
    cases = [
        (game.id, key, {"command": command, "expected_seq": 0}),  # stale_seq, 409
        (game.id, other, {"command": command}),  # not the other player's turn
        (game.id, key, {"command": {"type": "no such command"}}),
        (uuid.uuid4(), key, {"command": command}),  # no such table, 404
    ]
    for case in cases:
        before = head(game)
        route, django = both_ways(apps, *case)
        assert 400 <= route["status"] < 500, route
        assert set(route["json"]) >= {"code", "message"}
        same_answer(route, django)
        assert head(game) == before
    assert apps[1].passed == []


def test_a_refusal_before_the_write_is_left_to_django(apps, table, make_user):
    game = table["game"]
    index, command = mover(table)
    key = table["keys"][index]
    gone = make_user("gone")
    gone_key = Token.objects.create(user=gone).key
    gone.is_active = False
    gone.save()
    cases = [
        (game.id, "not-a-token", {"command": command}),
        (game.id, gone_key, {"command": command}),
        (game.id, key, {"command": command, "expected_seq": "soon"}),
        (game.id, key, {"no command": True}),
        (game.id, key, b'{"command": NaN}'),
        (game.id, key, b"{not json"),
        (game.id, key, b'{"command": {"type": "a\\u0000b"}}'),
        (game.id, key, json.loads("[" * 40 + "]" * 40)),
    ]
    for case in cases:
        before = head(game)
        passed = len(apps[1].passed)
        route, django = both_ways(apps, *case)
        assert 400 <= route["status"] < 500, (case, route)
        assert len(apps[1].passed) == passed + 1, f"the route answered {case[2]!r}"
        same_answer(route, django)
        assert head(game) == before


@pytest.mark.parametrize(
    "headers, query",
    [
        ({"accept": "text/html"}, ""),  # DRF's browsable API
        ({"accept": "application/json; indent=4"}, ""),  # DRF indents
        ({"cookie": "sessionid=abc"}, ""),  # DRF authenticates by the session first
        ({"content-type": "application/json; charset=latin-1"}, ""),
        ({"content-type": "text/plain"}, ""),
        ({"host": "evil.example"}, ""),
        ({}, "format=api"),
    ],
)
def test_anything_but_the_plain_case_goes_to_django(apps, table, headers, query):
    index, command = mover(table)
    answer = post(
        apps[0], table["game"].id, table["keys"][index], {"command": command}, headers, query
    )
    assert apps[1].passed == [f"/api/tables/{table['game'].id}/commands/"]
    assert answer["status"] in {201, 400, 403, 404, 406, 415}


def test_a_throttled_move_is_left_to_django_and_answers_429(apps, table, settings):
    cache.clear()
    rates = settings.REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"]
    settings.REST_FRAMEWORK = {
        **settings.REST_FRAMEWORK,
        "DEFAULT_THROTTLE_RATES": {**rates, "commands": "1/min"},
    }
    index, command = mover(table)
    key = table["keys"][index]
    first = post(apps[0], table["game"].id, key, {"command": command})
    assert first["status"] == 201 and apps[1].passed == []
    index, command = mover(table)
    second = post(apps[0], table["game"].id, table["keys"][index], {"command": command})
    third = post(apps[0], table["game"].id, key, {"command": command})
    assert second["status"] == 201
    assert third["status"] == 429 and third["json"]["code"] == "throttled"
    assert "retry-after" in third["headers"]
    assert len(apps[1].passed) == 1
    cache.clear()


def test_https_headers_match_djangos(table, settings):
    settings.SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    settings.SECURE_HSTS_SECONDS = 3600
    settings.SECURE_HSTS_PRELOAD = True
    settings.SECURE_SSL_REDIRECT = True
    django = Recorded()  # Django's SecurityMiddleware reads its settings when it is made
    apps = command_route.CommandRoute(django), django
    index, command = mover(table)
    body = {"command": command, "command_id": str(uuid.uuid4())}
    key = table["keys"][index]
    post(apps[0], table["game"].id, key, body, {"x-forwarded-proto": "https"})
    route, django = both_ways(apps, table["game"].id, key, body, {"x-forwarded-proto": "https"})
    assert "strict-transport-security" in route["headers"]
    same_answer(route, django)
    assert apps[1].passed == []
    # Plain http where HTTPS is required: Django's redirect.
    insecure = post(apps[0], table["game"].id, key, body)
    assert insecure["status"] == 301
    assert apps[1].passed == [f"/api/tables/{table['game'].id}/commands/"]


def test_a_failure_in_the_write_path_is_a_logged_json_500(apps, table, monkeypatch, caplog):
    from games import services

    def broken(**_):
        raise RuntimeError("the disk is on fire")

    monkeypatch.setattr(services, "game_submit", broken)
    index, command = mover(table)
    route, django = both_ways(apps, table["game"].id, table["keys"][index], {"command": command})
    assert route["status"] == 500 and route["json"]["code"] == "server_error"
    assert "fire" not in json.dumps(route["json"])
    same_answer(route, django)
    assert "uncaught exception under /api/tables/" in caplog.text


def test_a_busy_pool_is_a_503_with_retry_after(apps, table, monkeypatch):
    from django.db import OperationalError
    from psycopg_pool import PoolTimeout

    from games import services

    def busy(**_):
        raise OperationalError("no connection") from PoolTimeout("timed out")

    monkeypatch.setattr(services, "game_submit", busy)
    index, command = mover(table)
    route, django = both_ways(apps, table["game"].id, table["keys"][index], {"command": command})
    assert route["status"] == 503 and route["headers"]["retry-after"] == "1"
    same_answer(route, django)


def test_the_request_id_is_echoed_and_logged(apps, table, caplog):
    index, command = mover(table)
    caplog.set_level("INFO", logger="kingdom.access")
    answer = post(
        apps[0],
        table["game"].id,
        table["keys"][index],
        {"command": command},
        {"x-request-id": "move-42"},
    )
    assert answer["headers"]["x-request-id"] == "move-42"
    (line,) = [r for r in caplog.records if r.name == "kingdom.access"]
    assert (line.status, line.method) == (201, "POST")


def test_a_busy_pool_before_the_write_is_left_to_django(apps, table, monkeypatch):
    from django.db import OperationalError
    from psycopg_pool import PoolTimeout

    def busy(self, key):
        raise OperationalError("no connection") from PoolTimeout("timed out")

    authenticator = type(command_route.token_authentication())
    monkeypatch.setattr(authenticator, "authenticate_credentials", busy)
    index, command = mover(table)
    before = head(table["game"])
    answer = post(apps[0], table["game"].id, table["keys"][index], {"command": command})
    assert answer["status"] == 503 and answer["json"]["code"] == "busy"
    assert len(apps[1].passed) == 1
    assert head(table["game"]) == before


def test_the_served_application_routes_moves_this_way():
    from kingdom import asgi

    limited = asgi.application.application_mapping["http"]
    http = limited.app  # behind the body's limits (kingdom/ops/body_limit.py)
    assert isinstance(http, command_route.CommandRoute)
    assert http.django_app is asgi.django_asgi_app
