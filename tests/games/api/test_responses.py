"""The OpenAPI schema is valid and the views answer what it says (games/api/responses.py).

Every call below goes through the WSGI app in this thread and is checked by schemathesis
against the operation's documented answers: status code, content type and body schema.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
import schemathesis
from django.core.management import call_command
from django.core.signals import request_finished, request_started
from django.core.wsgi import get_wsgi_application
from django.db import close_old_connections
from rest_framework.authtoken.models import Token

from community.models import ChatMessage, Report
from players.models import Rating


def test_the_schema_validates_without_a_warning(tmp_path):
    out = tmp_path / "schema.yaml"
    call_command("spectacular", "--validate", "--fail-on-warn", "--file", str(out))
    assert "/api/tables/{game_id}/commands/" in out.read_text()


@pytest.fixture
def api_schema(db) -> Iterator[Any]:
    # As Django's test client does: the request signals must not close the connection that
    # holds the test's transaction (they would, on PostgreSQL, outside autocommit).
    for signal in (request_started, request_finished):
        signal.disconnect(close_old_connections)
    try:
        yield schemathesis.openapi.from_wsgi("/api/schema/?format=json", get_wsgi_application())
    finally:
        for signal in (request_started, request_finished):
            signal.connect(close_old_connections)


def answer(
    schema: Any, label: str, token: str | None = None, status: int | None = 200, **case: Any
) -> Any:
    """Call one operation (``label`` as "METHOD /path") and check the answer against it
    (``status`` None: whichever status, as long as it is documented)."""
    method, path = label.split(" ", 1)
    operation = schema[path][method]
    headers = {"Authorization": f"Token {token}"} if token else {}
    response = operation.Case(headers=headers, **case).call()
    assert status is None or response.status_code == status, response.text
    operation.Case(headers=headers, **case).validate_response(response)
    return response.json() if response.content else None


def test_every_answer_of_a_game_from_table_to_audit_matches_the_schema(api_schema, make_user):
    s = api_schema
    ana, bob, mod = make_user("ana"), make_user("bob"), make_user("mod", staff=True)
    mod.user_permissions.add(*_moderate_permission())
    ana_t, bob_t, mod_t = (Token.objects.create(user=u).key for u in (ana, bob, mod))
    Rating.objects.create(user=bob, ruleset="kingdoms", value=1512.5, games=1)

    answer(s, "GET /api/rulesets/")
    answer(s, "GET /api/rulesets/kingdom-builder/sections/")
    answer(s, "GET /api/time-controls/")
    answer(s, "GET /api/leaderboards/{ruleset}/", path_parameters={"ruleset": "kingdoms"})
    answer(s, "GET /api/players/{username}/ratings/", path_parameters={"username": "bob"})
    answer(
        s, "POST /api/auth/signup/", status=201, body={"username": "cy", "password": "pw-1234567"}
    )
    answer(s, "POST /api/auth/token/", body={"username": "cy", "password": "pw-1234567"})
    answer(s, "POST /api/auth/token/", status=400, body={"username": "cy", "password": "wrong-pw"})

    table = answer(s, "POST /api/tables/", ana_t, 201, body={"ruleset": "kingdoms", "seats": 2})
    game = {"game_id": table["id"]}
    answer(s, "GET /api/tables/", query={"mine": "1"}, token=ana_t)
    bots = answer(s, "POST /api/tables/{game_id}/bots/", ana_t, 201, path_parameters=game, body={})
    bot = next(seat["id"] for seat in bots["seats"] if seat["bot"])
    answer(
        s,
        "DELETE /api/tables/{game_id}/bots/{seat_id}/",
        ana_t,
        path_parameters={**game, "seat_id": bot},
    )
    answer(s, "POST /api/tables/{game_id}/join/", bob_t, path_parameters=game)
    answer(s, "POST /api/tables/{game_id}/start/", ana_t, path_parameters=game)

    legal = answer(s, "GET /api/tables/{game_id}/legal/", ana_t, path_parameters=game)
    mover = ana_t if legal["commands"] else bob_t
    legal = (
        legal
        if legal["commands"]
        else answer(s, "GET /api/tables/{game_id}/legal/", bob_t, path_parameters=game)
    )
    move = {"command": legal["commands"][0], "command_id": "5f1d8a8e-0c1f-4c53-9a52-3f8a2e8d9b10"}
    answer(s, "POST /api/tables/{game_id}/commands/", mover, 201, path_parameters=game, body=move)
    answer(s, "POST /api/tables/{game_id}/commands/", mover, 200, path_parameters=game, body=move)
    stale = {"command": legal["commands"][0], "expected_seq": 0}
    answer(s, "POST /api/tables/{game_id}/commands/", mover, 409, path_parameters=game, body=stale)
    answer(s, "GET /api/tables/{game_id}/", ana_t, path_parameters=game)
    answer(s, "GET /api/tables/{game_id}/events/", bob_t, path_parameters=game)
    answer(s, "GET /api/tables/{game_id}/view/", path_parameters=game, query={"at": 1})
    answer(s, "GET /api/tables/{game_id}/audit/", path_parameters=game)
    answer(s, "GET /api/tables/{game_id}/audit/trail/", path_parameters=game, status=403)
    answer(
        s, "POST /api/tables/{game_id}/skip/", ana_t, None, path_parameters=game, body={"seat": 1}
    )

    said = answer(
        s, "POST /api/tables/{game_id}/chat/", bob_t, 201, path_parameters=game, body={"body": "gl"}
    )
    answer(s, "GET /api/tables/{game_id}/chat/", path_parameters=game)
    message = {"message_id": said["id"]}
    answer(s, "POST /api/chat/{message_id}/report/", ana_t, 201, path_parameters=message, body={})
    answer(s, "GET /api/moderation/reports/", mod_t)
    answer(
        s, "POST /api/chat/{message_id}/hide/", mod_t, path_parameters=message, body={"reason": "r"}
    )
    report = {"report_id": Report.objects.get().pk}
    answer(
        s,
        "POST /api/moderation/reports/{report_id}/resolve/",
        mod_t,
        path_parameters=report,
        body={},
    )
    answer(
        s,
        "POST /api/moderation/reports/{report_id}/dismiss/",
        mod_t,
        409,
        path_parameters=report,
        body={},
    )
    bob_name = {"username": "bob"}
    answer(
        s,
        "POST /api/players/{username}/mute/",
        mod_t,
        201,
        path_parameters=bob_name,
        body={"reason": "r", "minutes": 5},
    )
    answer(
        s,
        "POST /api/players/{username}/unmute/",
        mod_t,
        path_parameters=bob_name,
        body={"reason": "r"},
    )
    answer(
        s,
        "POST /api/tables/{game_id}/disconnect/",
        mod_t,
        path_parameters=game,
        body={"reason": "r"},
    )
    answer(
        s, "POST /api/tables/{game_id}/abort/", mod_t, path_parameters=game, body={"reason": "r"}
    )
    answer(
        s,
        "POST /api/tables/{game_id}/kick/",
        mod_t,
        409,  # the game is over
        path_parameters=game,
        body={"username": "bob", "reason": "r"},
    )
    answer(
        s,
        "POST /api/players/{username}/ban/",
        mod_t,
        path_parameters=bob_name,
        body={"reason": "r"},
    )
    answer(
        s,
        "POST /api/players/{username}/unban/",
        mod_t,
        path_parameters=bob_name,
        body={"reason": "r"},
    )
    answer(s, "POST /api/tables/{game_id}/resign/", ana_t, 409, path_parameters=game)
    answer(s, "GET /api/moderation/records/", mod_t, query={"game": table["id"]})
    answer(s, "GET /api/tables/{game_id}/audit/trail/", path_parameters=game)
    answer(
        s,
        "GET /api/tables/{game_id}/",
        path_parameters={"game_id": "00000000-0000-0000-0000-000000000000"},
        status=404,
    )
    assert ChatMessage.objects.filter(hidden=True).count() == 1


def _moderate_permission() -> list:
    from django.contrib.auth.models import Permission

    return list(Permission.objects.filter(codename="moderate"))
