"""REST views of the audit: a game's hash-chain summary, and the audit page's data (the
trail). They translate HTTP to selectors and audit.trail, nothing more.
"""

from __future__ import annotations

from drf_spectacular.utils import extend_schema
from rest_framework import permissions
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from audit import responses as answers
from audit import trail
from games import selectors
from games.api.responses import READ_ONE
from games.errors import Forbidden


class TableAudit(APIView):
    @extend_schema(responses={200: answers.AuditSummarySerializer, **READ_ONE})
    def get(self, request: Request, game_id: str) -> Response:
        return Response(selectors.audit_summary(selectors.get_game(game_id)))


class TableAuditTrail(APIView):
    """The audit page's data: finished games for anyone, games in progress for staff."""

    permission_classes = [permissions.AllowAny]

    @extend_schema(responses={200: answers.AuditReportSerializer, **READ_ONE})
    def get(self, request: Request, game_id: str) -> Response:
        game = selectors.get_game(game_id)
        if not trail.may_audit(game, request.user):
            raise Forbidden("forbidden", "A game in progress is audited by staff only.")
        return Response(trail.audit_report(game))
