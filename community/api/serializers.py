"""What the chat and moderation endpoints accept (strict: unknown fields are refused)."""

from __future__ import annotations

from games.api import strict as serializers
from games.api.serializers import ReasonSerializer


class KickSerializer(serializers.Serializer):
    username = serializers.CharField(max_length=150)
    reason = serializers.CharField(max_length=500)


class MuteSerializer(ReasonSerializer):
    minutes = serializers.IntegerField(min_value=1, required=False, allow_null=True, default=None)


class ChatPostSerializer(serializers.Serializer):
    body = serializers.CharField(max_length=500, trim_whitespace=True)


class ReportSerializer(serializers.Serializer):
    reason = serializers.CharField(max_length=500, allow_blank=True, default="")


class NoteSerializer(serializers.Serializer):
    note = serializers.CharField(max_length=500, allow_blank=True, default="")
