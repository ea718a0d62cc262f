"""Hostile input to the REST API: every answer is JSON ``{"code", "message"}`` with a 4xx
(a 500 only as the last resort, still JSON), and the log is never changed by it."""

from __future__ import annotations

import json
import uuid
from datetime import timedelta
from unittest import mock

import pytest
from django.contrib.auth import get_user_model
from kombu.exceptions import OperationalError
from rest_framework.test import APIClient

from bots import scheduling
from community.models import ChatMessage
from games.models import Game, GameEvent
from infra.channel_layer import redis_channel_layer
from tests.games.helpers import json_refusal, make_moderator

pytestmark = pytest.mark.django_db(transaction=True)

NUL, LONE_SURROGATE = "\x00", "\ud800"


def post_raw(client: APIClient, url: str, body: object | str):
    """POST ``body`` as JSON text; ``json.dumps`` escapes NUL and surrogates as ``\\uXXXX``
    exactly as a hostile client would send them."""
    text = body if isinstance(body, str) else json.dumps(body)
    return client.generic("POST", url, text, content_type="application/json")


def assert_json_error(response, status: int | tuple[int, ...]) -> dict:
    statuses = status if isinstance(status, tuple) else (status,)
    assert response.status_code in statuses, (response.status_code, response.content[:300])
    body = json_refusal(response)
    assert "Traceback" not in response.content.decode()
    return body


def logged(game_id: str) -> int:
    return GameEvent.objects.filter(game_id=game_id).count()


def nested(depth: int) -> str:
    return "[" * depth + "]" * depth


# ---- malformed JSON ---------------------------------------------------------------------
def test_deeply_nested_json_on_a_command_is_a_400(started):
    client, game_id = started
    before = logged(game_id)
    text = '{"command": {"type": "pass", "x": ' + nested(5000) + "}}"
    body = assert_json_error(post_raw(client, f"/api/tables/{game_id}/commands/", text), 400)
    assert body["code"] == "too_deep"
    assert logged(game_id) == before


def test_deeply_nested_json_on_the_anonymous_signup_is_a_400():
    users = get_user_model().objects.count()
    text = '{"username": "deep", "password": ' + nested(1100) + "}"
    assert_json_error(post_raw(APIClient(), "/api/auth/signup/", text), 400)
    assert get_user_model().objects.count() == users


@pytest.mark.parametrize("kind", [["pass"], {"a": 1}])
def test_an_unhashable_command_type_is_an_unknown_command(started, kind):
    client, game_id = started
    before = logged(game_id)
    response = post_raw(client, f"/api/tables/{game_id}/commands/", {"command": {"type": kind}})
    assert assert_json_error(response, 400)["code"] == "unknown_command"
    assert logged(game_id) == before


# ---- what a command may hold ------------------------------------------------------------
def test_an_unknown_key_in_a_command_is_refused_and_never_logged(started):
    client, game_id = started
    legal = client.get(f"/api/tables/{game_id}/legal/").json()["commands"][0]
    before = logged(game_id)
    command = {**legal, "note": "x" * 50_000}
    response = post_raw(client, f"/api/tables/{game_id}/commands/", {"command": command})
    assert assert_json_error(response, 400)["code"] == "bad_command"
    assert logged(game_id) == before
    assert not GameEvent.objects.filter(game_id=game_id, command__has_key="note").exists()


def test_a_wrong_type_in_a_command_field_is_a_bad_command(started):
    client, game_id = started
    before = logged(game_id)
    command = {"type": "place_castle", "rank": {"a": 1}, "space": [0, 0]}
    response = post_raw(client, f"/api/tables/{game_id}/commands/", {"command": command})
    assert assert_json_error(response, 400)["code"] == "bad_command"
    assert logged(game_id) == before


def test_the_log_keeps_the_validated_command(started):
    client, game_id = started
    legal = client.get(f"/api/tables/{game_id}/legal/").json()
    response = post_raw(
        client,
        f"/api/tables/{game_id}/commands/",
        {"command": legal["commands"][0], "expected_seq": legal["seq"]},
    )
    assert response.status_code == 201, response.json()
    recorded = GameEvent.objects.get(game_id=game_id, seq=legal["seq"] + 1)
    assert recorded.command == legal["commands"][0]


def test_a_refusal_echoes_only_the_start_of_a_huge_type(started):
    client, game_id = started
    response = post_raw(
        client, f"/api/tables/{game_id}/commands/", {"command": {"type": "x" * 60_000}}
    )
    body = assert_json_error(response, 400)
    assert len(response.content) < 2_000, body


def test_resign_still_works_and_cannot_be_sent_as_a_command(started):
    client, game_id = started
    before = logged(game_id)
    refused = post_raw(client, f"/api/tables/{game_id}/commands/", {"command": {"type": "resign"}})
    assert assert_json_error(refused, 400)["code"] == "service_command"
    assert logged(game_id) == before
    assert client.post(f"/api/tables/{game_id}/resign/").status_code == 200
    assert logged(game_id) > before


# ---- body size --------------------------------------------------------------------------
def test_a_body_over_the_limit_is_a_413_before_it_is_parsed(started, settings):
    client, game_id = started
    before = logged(game_id)
    text = json.dumps({"command": {"type": "x" * (settings.API_MAX_BODY_BYTES + 1)}})
    with mock.patch("rest_framework.parsers.JSONParser.parse") as parse:
        response = post_raw(client, f"/api/tables/{game_id}/commands/", text)
    body = assert_json_error(response, 413)
    assert body["code"] == "too_large" and not parse.called
    assert len(response.content) < 1_000
    assert logged(game_id) == before


# ---- NUL and lone surrogates, wherever a string reaches the database -------------------
@pytest.fixture
def places(started, make_user):
    """(name, client, url, body builder) for every write that stores a player's text."""
    client, game_id = started
    cards_id = client.post(
        "/api/tables/", {"ruleset": "kingdom-cards", "seats": 3, "options": {}}, format="json"
    ).json()["id"]
    for _ in range(2):
        client.post(f"/api/tables/{cards_id}/bots/", {"level": "easy"}, format="json")
    client.post(f"/api/tables/{cards_id}/start/")
    cards_move = client.get(f"/api/tables/{cards_id}/legal/").json()["commands"][0]
    moderator = APIClient()
    moderator.force_authenticate(make_moderator(make_user("mod", staff=True)))
    return {
        "command": (
            client,
            f"/api/tables/{game_id}/commands/",
            lambda s: {"command": {"type": "place_castle", "rank": s, "space": [0, 0]}},
        ),
        "command name": (
            client,
            f"/api/tables/{game_id}/commands/",
            lambda s: {"command": {"type": "place_tile", "tile": s, "space": [0, 0]}},
        ),
        # Kingdom Cards' engine ignores an extra key: the log stored it, NUL and all.
        "kingdom cards command": (
            client,
            f"/api/tables/{cards_id}/commands/",
            lambda s: {"command": {**cards_move, "note": s}},
        ),
        "chat": (client, f"/api/tables/{game_id}/chat/", lambda s: {"body": f"hi{s}"}),
        "signup name": (
            APIClient(),
            "/api/auth/signup/",
            lambda s: {"username": f"eve{s}", "password": "long-pass-1"},
        ),
        "signup password": (
            APIClient(),
            "/api/auth/signup/",
            lambda s: {"username": "eve", "password": f"long-pass-1{s}"},
        ),
        "table options": (
            client,
            "/api/tables/",
            lambda s: {
                "ruleset": "kingdom-builder",
                "seats": 2,
                "options": {"cards": [f"fishermen{s}"]},
            },
        ),
        "time control": (
            client,
            "/api/tables/",
            lambda s: {"ruleset": "kingdoms", "seats": 2, "time_control": {"kind": f"none{s}"}},
        ),
        "abort reason": (
            moderator,
            f"/api/tables/{game_id}/abort/",
            lambda s: {"reason": f"cheating{s}"},
        ),
    }


def database_rows(game_id: str) -> tuple[int, ...]:
    return (
        GameEvent.objects.count(),
        ChatMessage.objects.count(),
        get_user_model().objects.count(),
        Game.objects.count(),
        Game.objects.filter(status=Game.Status.ACTIVE).count(),
    )


@pytest.mark.parametrize("text", [NUL, LONE_SURROGATE], ids=["nul", "lone-surrogate"])
@pytest.mark.parametrize(
    "place",
    [
        "command",
        "command name",
        "kingdom cards command",
        "chat",
        "signup name",
        "signup password",
        "table options",
        "time control",
        "abort reason",
    ],
)
def test_nul_and_lone_surrogates_are_refused_wherever_text_is_stored(started, places, place, text):
    _, game_id = started
    client, url, body = places[place]
    before = database_rows(game_id)
    response = post_raw(client, url, body(text))
    assert_json_error(response, 400)
    assert database_rows(game_id) == before


def test_a_surrogate_pair_is_an_ordinary_character(started):
    client, game_id = started
    response = client.generic(
        "POST",
        f"/api/tables/{game_id}/chat/",
        '{"body": "well played \\ud83d\\ude00"}',
        content_type="application/json",
    )
    assert response.status_code == 201, response.content
    assert ChatMessage.objects.get().body.endswith("\U0001f600")


def test_nul_in_a_path_or_query_is_a_400():
    assert_json_error(APIClient().get("/api/players/a%00b/ratings/"), (400, 404))
    assert_json_error(APIClient().get("/api/tables/?ruleset=a%00b"), 400)


# ---- not found, server errors -------------------------------------------------------------
@pytest.mark.parametrize(
    "path", ["/api/tables/not-a-uuid/", "/api/tables/123/commands/", "/api/nothing-here/"]
)
def test_an_unknown_api_path_is_a_json_404(path):
    assert assert_json_error(APIClient().get(path), 404)["code"] == "not_found"


def test_an_unknown_api_path_is_a_json_404_on_the_debug_server_too(settings):
    settings.DEBUG = True  # Django answers its HTML debug page, not handler404
    assert assert_json_error(APIClient().get("/api/tables/x/"), 404)["code"] == "not_found"
    assert APIClient().get("/no-such-page/")["Content-Type"].startswith("text/html")


def test_an_uncaught_exception_under_api_is_a_json_500_without_the_traceback(started, caplog):
    client, game_id = started
    client.raise_request_exception = False
    with mock.patch("games.selectors.table_detail", side_effect=RuntimeError("secret-detail")):
        response = client.get(f"/api/tables/{game_id}/")
    body = assert_json_error(response, 500)
    assert body["code"] == "server_error"
    assert "secret-detail" not in response.content.decode()
    assert any("secret-detail" in str(r.exc_info) for r in caplog.records if r.exc_info)


# ---- Redis down after the commit --------------------------------------------------------
def test_a_committed_move_answers_201_when_redis_is_down_and_the_outbox_sends_the_bot(
    started, settings, caplog
):
    client, game_id = started
    settings.BOT_RUNNER = "celery"
    settings.CHANNEL_LAYERS = {  # nothing listens on port 1
        "default": redis_channel_layer("redis://127.0.0.1:1/0")
    }
    legal = client.get(f"/api/tables/{game_id}/legal/").json()
    down = OperationalError("Error 111 connecting to 127.0.0.1:1. Connection refused.")
    with mock.patch("bots.tasks.take_turn.apply_async", side_effect=down) as send:
        response = post_raw(
            client,
            f"/api/tables/{game_id}/commands/",
            {"command": legal["commands"][0], "expected_seq": legal["seq"]},
        )
    assert response.status_code == 201, response.content
    assert send.called, "the bot's turn was due"
    assert logged(game_id) == legal["seq"] + 1
    assert any(r.levelname == "ERROR" and r.exc_info for r in caplog.records)

    # Redis is back: once the lease ran out the outbox sends the bot turn owed again.
    game = Game.objects.get(pk=game_id)
    assert game.bots_due_at is not None, "the turn whose send failed is owed"
    with mock.patch("bots.tasks.take_turn.apply_async") as send:
        assert scheduling.owed_turns_send(now=game.bots_due_at - timedelta(seconds=1)) == 0
        assert scheduling.owed_turns_send(now=game.bots_due_at) == 1
    (job,) = scheduling.jobs_of(game)
    assert send.call_args.kwargs["args"] == job and job[2] == game.head_seq


def test_an_unknown_table_id_in_a_command_url_is_a_json_404(started):
    client, _ = started
    response = post_raw(client, f"/api/tables/{uuid.uuid4()}/commands/", {"command": {}})
    assert_json_error(response, (400, 404))
