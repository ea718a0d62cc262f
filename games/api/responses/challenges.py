"""The answers of the challenges and the bot API, for the OpenAPI schema."""

from __future__ import annotations

from drf_spectacular.utils import inline_serializer
from rest_framework import serializers

from games.api.responses.tables import EventSerializer, TimeControlSerializer
from games.models import Challenge

__all__ = [
    "ChallengeSerializer",
    "ChallengesSerializer",
    "HeadSerializer",
    "StreamLineSerializer",
]


class ChallengePlayerSerializer(serializers.Serializer):
    name = serializers.CharField()
    bot = serializers.BooleanField(help_text="a bot account")


class ChallengeSerializer(serializers.Serializer):
    id = serializers.UUIDField()
    status = serializers.ChoiceField(choices=Challenge.Status.choices)
    challenger = ChallengePlayerSerializer()
    dest_user = ChallengePlayerSerializer(help_text="the challenged player")
    table = serializers.UUIDField(help_text="the table the challenge invites to")
    ruleset = serializers.CharField()
    options = serializers.DictField(help_text="the ruleset's table options")
    seats = serializers.IntegerField()
    time_control = TimeControlSerializer()
    decline_reason = serializers.CharField(allow_null=True)
    created_at = serializers.DateTimeField()
    expires_at = serializers.DateTimeField(help_text="ten minutes after it was made")
    url = serializers.CharField(help_text="the table's page")
    direction = serializers.ChoiceField(
        choices=["in", "out"], allow_null=True, help_text="in: to you; out: yours"
    )


# "in" is a Python keyword: the answer is declared by its JSON names.
ChallengesSerializer = inline_serializer(
    "Challenges",
    {
        "in": ChallengeSerializer(many=True, help_text="to you, waiting for your answer"),
        "out": ChallengeSerializer(many=True, help_text="yours, waiting for an answer"),
    },
)


class HeadSerializer(serializers.Serializer):
    head_seq = serializers.IntegerField()


class StreamStateSerializer(serializers.Serializer):
    seq = serializers.IntegerField()
    status = serializers.CharField()
    to_act = serializers.ListField(child=serializers.IntegerField())
    legal = serializers.ListField(
        child=serializers.JSONField(), help_text="your legal commands (the ruleset's shapes)"
    )
    server_time_ms = serializers.IntegerField()
    view = serializers.DictField(help_text="the ruleset's view for your seat")


class StreamLineSerializer(serializers.Serializer):
    """One line of an NDJSON stream (docs/bot-api.md); an empty line keeps it alive."""

    type = serializers.CharField(help_text="gameFull, gameState, chatLine, opponentGone, ...")
    seq = serializers.IntegerField(required=False, help_text="the game's head this line is at")
    state = StreamStateSerializer(required=False)
    events = EventSerializer(many=True, required=False)
