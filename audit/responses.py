"""What the audit API answers, for the OpenAPI schema (as games.api.responses does for the
rest): the summary at ``/api/tables/<id>/audit/`` and the whole report at ``…/audit/trail/``.
"""

from __future__ import annotations

from rest_framework import serializers

from community.models import ModerationRecord
from games.api.responses import EventSerializer, TableSeatSerializer
from games.models import Game


class AuditSummarySerializer(serializers.Serializer):
    id = serializers.UUIDField()
    status = serializers.ChoiceField(choices=Game.Status.choices)
    events = serializers.IntegerField()
    head_seq = serializers.IntegerField()
    head_hash = serializers.CharField(allow_null=True)
    chain_intact = serializers.BooleanField()
    broken_at = serializers.IntegerField(allow_null=True)
    seed_commitment = serializers.CharField(allow_blank=True)
    seed = serializers.CharField(allow_null=True)


class VerdictSerializer(serializers.Serializer):
    game = serializers.CharField()
    passed = serializers.BooleanField()
    chain_intact = serializers.BooleanField()
    fields_match = serializers.BooleanField()
    replay_matches = serializers.BooleanField()
    final_state_matches = serializers.BooleanField(allow_null=True)
    reexecution_matches = serializers.BooleanField(allow_null=True)
    problems = serializers.ListField(child=serializers.CharField())


class AuditModerationSerializer(serializers.Serializer):
    action = serializers.ChoiceField(choices=ModerationRecord.Action.choices)
    action_text = serializers.CharField()
    moderator = serializers.CharField()
    reason = serializers.CharField(allow_blank=True)
    event_seq = serializers.IntegerField(allow_null=True)
    created_at = serializers.DateTimeField()


class AuditReportSerializer(AuditSummarySerializer):
    ruleset = serializers.CharField()
    ruleset_name = serializers.CharField()
    ruleset_version = serializers.CharField()
    options = serializers.DictField()
    time_control = serializers.DictField()
    started_at = serializers.DateTimeField(allow_null=True)
    finished_at = serializers.DateTimeField(allow_null=True)
    outcome = serializers.DictField(allow_null=True)
    seats = TableSeatSerializer(many=True)
    verdict = VerdictSerializer(allow_null=True)
    timeline = EventSerializer(many=True)
    moderation = AuditModerationSerializer(many=True)
