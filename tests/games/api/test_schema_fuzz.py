"""A bounded schemathesis run over every /api/ operation, with every check, in-process.

Two callers: a player (token) seated at a started game, whose ids fill the path so the
game endpoints are reachable, and an anonymous caller. PostgreSQL only (like the other
tests that serve requests from threads): schemathesis's workers call the WSGI app from
their own threads, which must see the rows this test committed.
"""

from __future__ import annotations

import traceback
from collections.abc import Callable, Iterator
from typing import Any

import pytest
import schemathesis
from django.core.signals import got_request_exception
from django.core.wsgi import get_wsgi_application
from django.db import connections
from rest_framework.authtoken.models import Token
from schemathesis.config import SchemathesisConfig
from schemathesis.engine import events
from schemathesis.specs.openapi import _auth_retry
from schemathesis.specs.openapi._auth_retry import build_retry_transport_kwargs

from community import services as community_services
from games import services
from tests.conftest import needs_postgres

pytestmark = [
    needs_postgres,
    pytest.mark.django_db(transaction=True),
]

# The bot API's NDJSON streams stay open until their game ends (or for good): a caller
# that reads the whole body would never return. tests/games/api/test_streams.py reads them.
STREAMS = r"^/api/(stream/event|bot/game/stream/)"
MAX_EXAMPLES = 3
MAX_SECONDS = 25  # per caller: the two runs stay under a minute together


def closing_connections(app: Callable) -> Callable:
    """The worker threads' database connections close after each request (else they
    outlive the test and block dropping the test database)."""

    def wrapped(environ: dict, start_response: Callable) -> Any:
        try:
            return list(app(environ, start_response))
        finally:
            connections.close_all()

    return wrapped


@pytest.fixture
def seated_player(make_user) -> Iterator[dict[str, Any]]:
    ana, bob = make_user("ana"), make_user("bob")
    game = services.table_create(user=ana, ruleset="kingdoms", seats=2)
    services.table_join(game_id=game.id, user=bob)
    services.game_start(game_id=game.id, user=ana)
    message = community_services.chat_post(game_id=game.id, user=bob, body="good luck")
    report = community_services.chat_report(message_id=message.pk, user=ana, reason="testing")
    yield {
        "token": Token.objects.create(user=ana).key,
        "parameters": {
            "game_id": str(game.id),
            "message_id": message.pk,
            "report_id": report.pk,
            "username": "bob",
            "ruleset": "kingdoms",
            "seat_id": game.seats.get(user=bob).pk,
        },
    }


@pytest.fixture(autouse=True)
def _probes_without_socket_settings(monkeypatch):
    """schemathesis 4.32.5 hands its auth probes (the ignored_auth check) the socket-level
    settings, which its in-process WSGI client refuses; drop them as its own send does."""

    def in_process(base_kwargs, security_parameters):
        kwargs = build_retry_transport_kwargs(base_kwargs, security_parameters)
        for name in ("max_redirects", "verify", "cert", "proxies"):
            kwargs.pop(name, None)
        return kwargs

    monkeypatch.setattr(_auth_retry, "build_retry_transport_kwargs", in_process)


def fuzz(parameters: dict[str, Any], token: str | None) -> dict[str, str]:
    """Every check on every operation; the failures, one per operation, check and title."""
    config = SchemathesisConfig.from_dict(
        {
            "seed": 20251018,
            "cache": {"enabled": False},  # no state carried between runs (nor files left)
            "max-time": MAX_SECONDS,
            "workers": 1,
            "parameters": parameters,
            "generation": {"max-examples": MAX_EXAMPLES, "no-shrink": True},
            "checks": {
                "enabled": True,
                # Well-formed is not legal: the rules engine refuses a schema-valid command
                # or table (a move out of turn, 1 seat for a 2-5 player game) with 400.
                "positive_data_acceptance": {
                    "expected-statuses": ["2xx", "3xx", 400, 401, 403, 404, 409, 429]
                },
            },
            "phases": {"stateful": {"enabled": False}},
            **(
                {"auth": {"openapi": {"tokenAuth": {"api_key": f"Token {token}"}}}} if token else {}
            ),
        }
    )
    schema = schemathesis.openapi.from_wsgi(
        "/api/schema/?format=json", closing_connections(get_wsgi_application()), config=config
    ).exclude(path_regex=STREAMS)
    failures: dict[str, str] = {}
    crashes: list[str] = []

    def crashed(sender: Any, request: Any, **kwargs: Any) -> None:
        crashes.append(f"{request.method} {request.get_full_path()}\n{traceback.format_exc()}")

    got_request_exception.connect(crashed)
    try:
        run = list(schemathesis.engine.from_schema(schema).execute())
    finally:
        got_request_exception.disconnect(crashed)
    for index, crash in enumerate(crashes):
        failures[f"crash {index}"] = crash
    for event in run:
        if isinstance(event, events.ScenarioFinished):
            for case_checks in event.recorder.checks.values():
                for check in case_checks:
                    if check.failure_info is not None:
                        failure = check.failure_info.failure
                        key = f"{event.recorder.label}: {check.name}: {failure.title}"
                        failures[key] = f"{failure.message}\n{check.failure_info.code_sample}"
        elif isinstance(event, events.NonFatalError):
            failures[f"error {event.label}"] = event.info.format()
        elif isinstance(event, events.FatalError):
            failures["fatal"] = repr(event.exception)
    return failures


def test_a_seated_player_fuzzing_every_operation_meets_no_server_error_and_no_schema_violation(
    seated_player,
):
    failures = fuzz(seated_player["parameters"], seated_player["token"])
    assert not failures, "\n\n".join(f"{k}\n{v}" for k, v in sorted(failures.items()))


def test_an_anonymous_caller_fuzzing_every_operation_meets_no_server_error_and_no_schema_violation(
    seated_player,
):
    failures = fuzz(seated_player["parameters"], None)
    assert not failures, "\n\n".join(f"{k}\n{v}" for k, v in sorted(failures.items()))
