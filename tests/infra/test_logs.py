"""Structured logs: the request id is taken or made, echoed, bound in every log line of
the request, and carried to the Celery tasks the request schedules."""

from __future__ import annotations

import io
import json
import logging
import logging.config

import pytest
import structlog

from bots import tasks
from infra import logs
from kingdom.celery import app


@pytest.fixture
def json_lines():
    """The production LOGGING (JSON) on a private stream; returns a reader of its lines."""
    stream = io.StringIO()
    config = logs.logging_config("json", level="WARNING", app_level="INFO")
    formatter = logging.config.DictConfigurator(config).configure_custom(
        dict(config["formatters"]["structured"])
    )
    handler = logging.StreamHandler(stream)
    handler.setFormatter(formatter)
    # The root, and each logger the config keeps from propagating to it (django's own).
    writers = [logging.getLogger()] + [
        logging.getLogger(name)
        for name, logger in config["loggers"].items()
        if logger.get("propagate") is False
    ]
    for writer in writers:
        writer.addHandler(handler)
    kingdom = logging.getLogger("kingdom")
    old_level = kingdom.level
    kingdom.setLevel(logging.INFO)
    yield lambda: [json.loads(line) for line in stream.getvalue().splitlines()]
    for writer in writers:
        writer.removeHandler(handler)
    kingdom.setLevel(old_level)


def test_a_given_request_id_is_echoed(client, db):
    response = client.get("/api/rulesets/", HTTP_X_REQUEST_ID="abc-123")
    assert response["X-Request-ID"] == "abc-123"


def test_a_request_id_is_made_when_none_or_a_malformed_one_is_given(client, db):
    made = client.get("/api/rulesets/")["X-Request-ID"]
    assert len(made) == 32 and int(made, 16) >= 0
    injected = client.get("/api/rulesets/", HTTP_X_REQUEST_ID='x"\n{"level": "fake"}')
    assert injected["X-Request-ID"] != 'x"\n{"level": "fake"}'
    assert len(injected["X-Request-ID"]) == 32


def test_every_line_of_a_request_is_json_with_its_request_id(client, db, json_lines):
    client.get("/api/rulesets/", HTTP_X_REQUEST_ID="req-42")
    (access,) = [line for line in json_lines() if line["logger"] == "kingdom.access"]
    assert access["request_id"] == "req-42"
    assert access["event"] == "request"
    assert access["path"] == "/api/rulesets/"
    assert access["status"] == 200
    assert access["level"] == "info" and "timestamp" in access
    # Nothing of the request stays bound once it is answered.
    assert "request_id" not in structlog.contextvars.get_contextvars()


def test_django_s_own_request_lines_carry_the_request_id_and_no_ticket(client, db, json_lines):
    # django.request writes "Not Found" after the request's middleware has returned.
    client.get("/no-such-page/?ticket=tk-SECRET-42&x=1", HTTP_X_REQUEST_ID="req-404")
    lines = json_lines()
    (not_found,) = [line for line in lines if line["logger"] == "django.request"]
    assert not_found["request_id"] == "req-404"
    assert not_found["status_code"] == 404
    assert not_found["path"] == "/no-such-page/"
    assert "tk-SECRET-42" not in json.dumps(lines)


def test_a_ticket_in_any_logged_text_is_redacted(json_lines):
    logging.getLogger("kingdom.test").warning(
        '%s - "WebSocket %s" 403', "10.0.0.1:5", "/ws/lobby/?ticket=tk-SECRET-7&seat=1"
    )
    (line,) = [line for line in json_lines() if line["logger"] == "kingdom.test"]
    assert line["event"] == '10.0.0.1:5 - "WebSocket /ws/lobby/?ticket=[redacted]&seat=1" 403'


@pytest.mark.django_db(transaction=True)
def test_a_move_s_request_id_follows_it_into_the_service_log(api, json_lines):
    from games import services
    from games.models import Game
    from tests.games.helpers import game_with_bots

    client = api("ana")
    game = game_with_bots(client.user, bots=1)
    services.game_start(game_id=game.id, user=client.user)
    game = Game.objects.get(pk=game.id)
    response = client.post(
        f"/api/tables/{game.id}/commands/",
        {"command": {"type": "nonsense"}},
        format="json",
        HTTP_X_REQUEST_ID="move-7",
    )
    assert response.status_code >= 400
    refused = [line for line in json_lines() if line["event"] == "command refused"]
    assert refused and refused[-1]["request_id"] == "move-7"
    assert refused[-1]["game"] == str(game.id)


@pytest.mark.django_db(transaction=True)
def test_an_accepted_move_is_logged_at_debug_only_with_its_request_id(api, json_lines):
    from games import services
    from tests.games.helpers import game_with_bots

    client = api("ana")
    game = game_with_bots(client.user, bots=1)
    services.game_start(game_id=game.id, user=client.user)

    def move(request_id: str) -> None:
        table = client.get(f"/api/tables/{game.id}/legal/").json()
        response = client.post(
            f"/api/tables/{game.id}/commands/",
            {"command": table["commands"][0], "expected_seq": table["seq"]},
            format="json",
            HTTP_X_REQUEST_ID=request_id,
        )
        assert response.status_code == 201, response.content

    def accepted() -> list[dict]:
        return [line for line in json_lines() if line["event"] == "command accepted"]

    move("move-1")  # the fixture's INFO: the event log is the record of it
    assert accepted() == []
    logging.getLogger("kingdom").setLevel(logging.DEBUG)
    move("move-2")
    # The move, and the bot's answer the request ran in-process, each a line of its own.
    assert accepted()
    assert {(line["request_id"], line["game"]) for line in accepted()} == {("move-2", str(game.id))}


def test_a_task_published_during_a_request_carries_its_id_to_the_worker():
    structlog.contextvars.bind_contextvars(request_id="req-bot-1")
    try:
        with app.connection_for_write("memory://") as connection:
            tasks.take_turn.apply_async(
                args=("g", 1, 2), connection=connection, queue="request-id-test"
            )
            message = connection.SimpleQueue("request-id-test").get(timeout=5)
    finally:
        structlog.contextvars.clear_contextvars()
    assert message.headers[logs.TASK_HEADER] == "req-bot-1"
    assert message.headers["task"] == "bots.tasks.take_turn"
    message.ack()


def test_the_worker_binds_the_request_id_of_the_task_it_runs():
    class Request:  # a Celery task request as the worker builds it from the headers
        kingdom_request_id = "req-bot-2"

    class Task:
        name = "bots.tasks.take_turn"
        request = Request()

    logs.bind_task_context(task=Task(), task_id="t-1")
    try:
        bound = structlog.contextvars.get_contextvars()
        assert bound == {
            "request_id": "req-bot-2",
            "task": "bots.tasks.take_turn",
            "task_id": "t-1",
        }
        # The bot's own command, submitted in the task, publishes the next turn with it.
        headers: dict = {}
        logs.stamp_task_headers(headers=headers)
        assert headers == {logs.TASK_HEADER: "req-bot-2"}
    finally:
        logs.clear_task_context()
    assert structlog.contextvars.get_contextvars() == {}


def test_a_task_sent_outside_any_request_is_logged_under_its_own_id():
    class Task:
        name = "bots.tasks.sweep_clocks"
        request = object()

    logs.bind_task_context(task=Task(), task_id="t-9")
    try:
        assert structlog.contextvars.get_contextvars()["request_id"] == "t-9"
    finally:
        logs.clear_task_context()


def test_each_line_has_one_handler_and_the_embedded_servers_request_lines_are_quiet():
    """Django's DEBUG handler and runserver's own line per request repeated every access
    line two or three times; each logger writes through the one handler, once."""
    config = logs.logging_config("console", "INFO", "INFO")
    loggers = config["loggers"]
    for name in ("django", "django.channels.server", "django.server", "uvicorn"):
        assert (loggers[name]["handlers"], loggers[name]["propagate"]) == (["console"], False)
    assert loggers["django.channels.server"]["level"] == "WARNING"
    assert loggers["django.server"]["level"] == "WARNING"
