"""Request bodies of the REST API (responses come from games.selectors)."""

from __future__ import annotations

from rest_framework import serializers

from games.services import BOT_LEVELS


class TableCreateSerializer(serializers.Serializer):
    ruleset = serializers.CharField(max_length=40)
    seats = serializers.IntegerField(min_value=1, max_value=8)
    options = serializers.DictField(required=False, default=dict)
    join = serializers.BooleanField(required=False, default=True)


class BotAddSerializer(serializers.Serializer):
    level = serializers.ChoiceField(choices=BOT_LEVELS, default="medium")


class CommandSerializer(serializers.Serializer):
    command = serializers.DictField(help_text='e.g. {"type": "place_castle", ...}')
    command_id = serializers.UUIDField(required=False, allow_null=True)
    expected_seq = serializers.IntegerField(required=False, allow_null=True, min_value=0)


class AbortSerializer(serializers.Serializer):
    reason = serializers.CharField(max_length=500, allow_blank=True, default="")


class SignupSerializer(serializers.Serializer):
    username = serializers.RegexField(r"^[\w.@+-]{2,30}$", max_length=30)
    password = serializers.CharField(min_length=8, max_length=128, write_only=True)
