"""Request bodies of the REST API (responses come from games.selectors)."""

from __future__ import annotations

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
        help_text="seconds a hard or expert bot may think per move "
        "(0.1 to 10; empty: the server's default)",
    )
    guided = serializers.BooleanField(
        required=False,
        default=False,
        help_text="a guided first game (the lobby's Learn to play): the same deal every time",
    )


class BotAddSerializer(serializers.Serializer):
    level = serializers.ChoiceField(choices=BOT_LEVELS, default="medium")


class CommandSerializer(serializers.Serializer):
    command = serializers.DictField(help_text='e.g. {"type": "place_castle", ...}')
    command_id = serializers.UUIDField(required=False, allow_null=True)
    expected_seq = serializers.IntegerField(required=False, allow_null=True, min_value=0)


class AbortSerializer(serializers.Serializer):
    # Required like every moderation reason: players see it with the game_aborted event.
    reason = serializers.CharField(max_length=500)


class SeatSerializer(serializers.Serializer):
    seat = serializers.IntegerField(min_value=0, max_value=7)


class ReasonSerializer(serializers.Serializer):
    reason = serializers.CharField(max_length=500)
