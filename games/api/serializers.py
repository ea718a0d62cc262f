"""Request bodies of the REST API (responses come from games.selectors)."""

from __future__ import annotations

import uuid
from typing import Any

from games.api import strict as serializers
from games.services import BOT_LEVELS


class TableCreateSerializer(serializers.Serializer):
    ruleset = serializers.CharField(max_length=40)
    seats = serializers.IntegerField(min_value=1, max_value=8)
    options = serializers.DictField(required=False, default=dict)
    join = serializers.BooleanField(required=False, default=True)
    time_control = serializers.JSONField(
        required=False,
        allow_null=True,
        default=None,
        help_text='{"kind": "none"} | {"kind": "realtime", "minutes": 10, '
        '"increment_seconds": 5} | {"kind": "turn", "hours": 24}',
    )

    bot_think_seconds = serializers.FloatField(
        required=False,
        allow_null=True,
        default=None,
        help_text="seconds a hard bot may think per move (0.1 to 10; empty: the server's default)",
    )


class BotAddSerializer(serializers.Serializer):
    level = serializers.ChoiceField(choices=BOT_LEVELS, default="medium")


class CommandSerializer(serializers.Serializer):
    command = serializers.DictField(help_text='e.g. {"type": "place_castle", ...}')
    command_id = serializers.UUIDField(required=False, allow_null=True)
    expected_seq = serializers.IntegerField(required=False, allow_null=True, min_value=0)


def command_body(data: Any) -> dict[str, Any] | None:
    """A move's body as ``CommandSerializer`` validates it, when it is plainly
    well-formed (a JSON object whose fields have their schema's types); None: anything
    else, which the serializer then answers, errors and all. Building the serializer
    (DRF deep-copies its fields) cost ~3% of a loaded server's time, every move."""
    if type(data) is not dict or type(data.get("command")) is not dict:
        return None  # a form body (a QueryDict) or no command object: the serializer's
    body: dict[str, Any] = {"command": {str(key): value for key, value in data["command"].items()}}
    if "command_id" in data:
        command_id = data["command_id"]
        if command_id is not None:
            if type(command_id) is not str:
                return None
            try:
                command_id = uuid.UUID(hex=command_id)  # what DRF's UUIDField reads
            except ValueError:
                return None
        body["command_id"] = command_id
    if "expected_seq" in data:
        expected_seq = data["expected_seq"]
        if expected_seq is not None and (type(expected_seq) is not int or expected_seq < 0):
            return None
        body["expected_seq"] = expected_seq
    return body


def valid_command(data: Any) -> dict[str, Any]:
    """A move's validated body, or DRF's ValidationError (a JSON 400 ``invalid``)."""
    body = command_body(data)
    if body is None:
        serializer = CommandSerializer(data=data)
        serializer.is_valid(raise_exception=True)
        body = serializer.validated_data
    return body


class AbortSerializer(serializers.Serializer):
    # Required like every moderation reason: players see it with the game_aborted event.
    reason = serializers.CharField(max_length=500)


class SeatSerializer(serializers.Serializer):
    seat = serializers.IntegerField(min_value=0, max_value=7)


class ReasonSerializer(serializers.Serializer):
    reason = serializers.CharField(max_length=500)
