"""Chat and moderation answers."""

from __future__ import annotations

from drf_spectacular.utils import inline_serializer
from rest_framework import serializers

from community.models import ModerationRecord, Report


# ---- chat -----------------------------------------------------------------------------
class ChatMessageSerializer(serializers.Serializer):
    """A chat line; a hidden one keeps only ``id`` and ``hidden`` (clients drop it)."""

    id = serializers.IntegerField()
    hidden = serializers.BooleanField()
    author = serializers.CharField(required=False)
    bot_account = serializers.BooleanField(
        required=False, help_text="the author is a bot account (shown as a bot)"
    )
    body = serializers.CharField(required=False)
    created_at = serializers.DateTimeField(required=False)


CHAT_HISTORY = inline_serializer("ChatHistory", {"messages": ChatMessageSerializer(many=True)})
REPORT_FILED = inline_serializer(
    "ReportFiled",
    {
        "report": serializers.IntegerField(),
        "status": serializers.ChoiceField(choices=Report.Status.choices),
    },
)
MESSAGE_HIDDEN = inline_serializer(
    "MessageHidden", {"id": serializers.IntegerField(), "hidden": serializers.BooleanField()}
)


# ---- moderation -----------------------------------------------------------------------
MUTED = inline_serializer(
    "Muted",
    {
        "username": serializers.CharField(),
        "muted_until": serializers.DateTimeField(allow_null=True),
    },
)
BLOCKED = inline_serializer("Blocked", {"blocked": serializers.CharField()})
UNMUTED = inline_serializer(
    "Unmuted",
    {
        "username": serializers.CharField(),
        "lifted": serializers.IntegerField(help_text="how many mutes were lifted"),
    },
)
BANNED = inline_serializer(
    "Banned",
    {
        "username": serializers.CharField(),
        "active": serializers.BooleanField(),
        "tables_left": serializers.IntegerField(),
    },
)
UNBANNED = inline_serializer(
    "Unbanned", {"username": serializers.CharField(), "active": serializers.BooleanField()}
)
REPORT_CLOSED = inline_serializer(
    "ReportClosed",
    {
        "id": serializers.IntegerField(),
        "status": serializers.ChoiceField(choices=Report.Status.choices),
    },
)


class ReportedMessageSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    author = serializers.CharField()
    body = serializers.CharField()
    hidden = serializers.BooleanField()
    created_at = serializers.DateTimeField()


class ModerationReportSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    status = serializers.ChoiceField(choices=Report.Status.choices)
    reason = serializers.CharField(allow_blank=True)
    reporter = serializers.CharField()
    created_at = serializers.DateTimeField()
    message = ReportedMessageSerializer()
    game = serializers.UUIDField()
    audit_url = serializers.CharField()
    handled_by = serializers.CharField(allow_null=True)
    note = serializers.CharField(allow_blank=True)


def _page(name: str, key: str, item: serializers.BaseSerializer) -> serializers.Serializer:
    """One page of a moderators' list (community.api.pagination): its items under
    ``key``, beside the count and the links to the pages around it."""
    return inline_serializer(
        name,
        {
            "count": serializers.IntegerField(help_text="items in all (every page)"),
            "next": serializers.URLField(allow_null=True, help_text="the next page, or null"),
            "previous": serializers.URLField(
                allow_null=True, help_text="the previous page, or null"
            ),
            key: item,
        },
    )


REPORTS = _page("ModerationQueue", "reports", ModerationReportSerializer(many=True))


class ModerationRecordSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    action = serializers.ChoiceField(choices=ModerationRecord.Action.choices)
    moderator = serializers.CharField()
    reason = serializers.CharField(allow_blank=True)
    target = serializers.CharField(allow_null=True)
    game = serializers.UUIDField(allow_null=True)
    message = serializers.IntegerField(allow_null=True)
    report = serializers.IntegerField(allow_null=True)
    event_seq = serializers.IntegerField(allow_null=True)
    created_at = serializers.DateTimeField()


RECORDS = _page("ModerationRecords", "records", ModerationRecordSerializer(many=True))
