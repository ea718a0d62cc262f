"""REST views for clocks (skip, expel), chat and moderation (the audit trail: audit.api).

They translate HTTP to services (writes) and selectors (reads), nothing more; the
services check permissions again, so a view's permission class is only the first gate.
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth import get_user_model
from django.contrib.auth.models import AbstractBaseUser
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import permissions
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from games import clocks, selectors, services
from games.api import responses as answers
from games.api import serializers
from games.api.permissions import IsModerator
from games.api.responses import READ, READ_ONE, WRITE_ONE, WRITE_TABLE, errors
from games.errors import NotFound
from games.models import ModerationRecord, Report


def _valid(serializer_class: type, data: Any) -> dict[str, Any]:
    serializer = serializer_class(data=data)
    serializer.is_valid(raise_exception=True)
    return serializer.validated_data


def _player(username: str) -> AbstractBaseUser:
    user = get_user_model().objects.filter(username=username).first()
    if user is None:
        raise NotFound("not_found", "No such player.")
    return user


def _detail(request: Request, game_id: str, status: int = 200) -> Response:
    game = selectors.get_game(game_id)
    return Response(selectors.table_detail(game, request.user), status=status)


# ---- clocks ---------------------------------------------------------------------------
class TimeControls(APIView):
    """The time controls a table may have, with their limits (for the lobby form)."""

    permission_classes = [permissions.AllowAny]

    @extend_schema(responses={200: answers.TimeControlsSerializer, **READ})
    def get(self, request: Request) -> Response:
        return Response(
            {
                "default": {"kind": clocks.NONE},
                "kinds": [
                    {"kind": clocks.NONE, "fields": {}},
                    {"kind": clocks.REALTIME, "fields": clocks.LIMITS[clocks.REALTIME]},
                    {"kind": clocks.TURN, "fields": clocks.LIMITS[clocks.TURN]},
                ],
            }
        )


class TableSkip(APIView):
    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(
        request=serializers.SeatSerializer,
        responses={200: answers.TableDetailSerializer, **WRITE_TABLE},
    )
    def post(self, request: Request, game_id: str) -> Response:
        body = _valid(serializers.SeatSerializer, request.data)
        services.game_skip(game_id=game_id, user=request.user, seat=body["seat"])
        return _detail(request, game_id)


class TableExpel(APIView):
    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(
        request=serializers.SeatSerializer,
        responses={200: answers.TableDetailSerializer, **WRITE_TABLE},
    )
    def post(self, request: Request, game_id: str) -> Response:
        body = _valid(serializers.SeatSerializer, request.data)
        services.game_expel(game_id=game_id, user=request.user, seat=body["seat"])
        return _detail(request, game_id)


# ---- chat -----------------------------------------------------------------------------
class TableChat(APIView):
    """GET: the last visible messages (anyone). POST: say something (logged in)."""

    throttle_scope = "chat"  # posts only (players/throttles.py)

    @extend_schema(responses={200: answers.CHAT_HISTORY, **READ_ONE})
    def get(self, request: Request, game_id: str) -> Response:
        game = selectors.get_game(game_id)
        return Response({"messages": selectors.chat_history(game)})

    @extend_schema(
        request=serializers.ChatPostSerializer,
        responses={201: answers.ChatMessageSerializer, **WRITE_ONE, **errors(429)},
    )
    def post(self, request: Request, game_id: str) -> Response:
        body = _valid(serializers.ChatPostSerializer, request.data)
        message = services.chat_post(game_id=game_id, user=request.user, body=body["body"])
        return Response(selectors.chat_message_json(message), status=201)


class ChatReport(APIView):
    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(
        request=serializers.ReportSerializer,
        responses={201: answers.REPORT_FILED, **WRITE_ONE},
    )
    def post(self, request: Request, message_id: int) -> Response:
        body = _valid(serializers.ReportSerializer, request.data)
        report = services.chat_report(
            message_id=message_id, user=request.user, reason=body["reason"]
        )
        return Response({"report": report.pk, "status": report.status}, status=201)


# ---- moderation -----------------------------------------------------------------------
class _Moderation(APIView):
    permission_classes = [IsModerator]


class ChatHide(_Moderation):
    @extend_schema(
        request=serializers.ReasonSerializer,
        responses={200: answers.MESSAGE_HIDDEN, **WRITE_ONE},
    )
    def post(self, request: Request, message_id: int) -> Response:
        body = _valid(serializers.ReasonSerializer, request.data)
        message = services.hide_message(
            message_id=message_id, moderator=request.user, reason=body["reason"]
        )
        return Response({"id": message.pk, "hidden": message.hidden})


class TableKick(_Moderation):
    @extend_schema(
        request=serializers.KickSerializer,
        responses={200: answers.TableDetailSerializer, **WRITE_TABLE},
    )
    def post(self, request: Request, game_id: str) -> Response:
        body = _valid(serializers.KickSerializer, request.data)
        services.kick_player(
            game_id=game_id,
            moderator=request.user,
            player=_player(body["username"]),
            reason=body["reason"],
        )
        return _detail(request, game_id)


class PlayerMute(_Moderation):
    @extend_schema(
        request=serializers.MuteSerializer,
        responses={201: answers.MUTED, **WRITE_ONE},
    )
    def post(self, request: Request, username: str) -> Response:
        body = _valid(serializers.MuteSerializer, request.data)
        mute = services.mute_player(
            player=_player(username),
            moderator=request.user,
            reason=body["reason"],
            minutes=body["minutes"],
        )
        until = mute.until.isoformat() if mute.until else None
        return Response({"username": username, "muted_until": until}, status=201)


class PlayerUnmute(_Moderation):
    @extend_schema(
        request=serializers.ReasonSerializer,
        responses={200: answers.UNMUTED, **WRITE_ONE},
    )
    def post(self, request: Request, username: str) -> Response:
        body = _valid(serializers.ReasonSerializer, request.data)
        lifted = services.unmute_player(
            player=_player(username), moderator=request.user, reason=body["reason"]
        )
        return Response({"username": username, "lifted": lifted})


class PlayerBan(_Moderation):
    @extend_schema(
        request=serializers.ReasonSerializer,
        responses={200: answers.BANNED, **WRITE_ONE},
    )
    def post(self, request: Request, username: str) -> Response:
        body = _valid(serializers.ReasonSerializer, request.data)
        kicks = services.ban_account(
            player=_player(username), moderator=request.user, reason=body["reason"]
        )
        return Response({"username": username, "active": False, "tables_left": len(kicks)})


class PlayerUnban(_Moderation):
    @extend_schema(
        request=serializers.ReasonSerializer,
        responses={200: answers.UNBANNED, **WRITE_ONE},
    )
    def post(self, request: Request, username: str) -> Response:
        body = _valid(serializers.ReasonSerializer, request.data)
        services.lift_ban(player=_player(username), moderator=request.user, reason=body["reason"])
        return Response({"username": username, "active": True})


def report_json(report: Report) -> dict[str, Any]:
    message = report.message
    return {
        "id": report.pk,
        "status": report.status,
        "reason": report.reason,
        "reporter": report.reporter.username,
        "created_at": report.created_at.isoformat(),
        "message": {
            "id": message.pk,
            "author": message.author.username,
            "body": message.body,
            "hidden": message.hidden,
            "created_at": message.created_at.isoformat(),
        },
        "game": str(message.game_id),
        "audit_url": f"/tables/{message.game_id}/audit/",
        "handled_by": report.handled_by.username if report.handled_by_id else None,
        "note": report.note,
    }


class ModerationQueue(_Moderation):
    @extend_schema(
        parameters=[
            OpenApiParameter(
                "status",
                str,
                description=f"one of {', '.join(Report.Status)} (default open); "
                "another value matches no report",
            )
        ],
        responses={200: answers.REPORTS, **READ},
    )
    def get(self, request: Request) -> Response:
        status = request.query_params.get("status", Report.Status.OPEN)
        reports = (
            Report.objects.filter(status=status)
            .select_related("message__author", "reporter", "handled_by")
            .order_by("created_at")[:200]
        )
        return Response({"reports": [report_json(r) for r in reports]})


class ReportClose(_Moderation):
    resolved = True

    @extend_schema(
        request=serializers.NoteSerializer,
        responses={200: answers.REPORT_CLOSED, **WRITE_TABLE},
    )
    def post(self, request: Request, report_id: int) -> Response:
        body = _valid(serializers.NoteSerializer, request.data)
        report = services.close_report(
            report_id=report_id, moderator=request.user, resolved=self.resolved, note=body["note"]
        )
        return Response({"id": report.pk, "status": report.status})


class ReportDismiss(ReportClose):
    resolved = False


class ModerationRecords(_Moderation):
    @extend_schema(
        parameters=[OpenApiParameter("game", str), OpenApiParameter("username", str)],
        responses={200: answers.RECORDS, **READ_ONE},
    )
    def get(self, request: Request) -> Response:
        records = ModerationRecord.objects.select_related("target_user").order_by("-created_at")
        if game := request.query_params.get("game"):
            records = records.filter(game=selectors.get_game(game))
        if username := request.query_params.get("username"):
            records = records.filter(target_user__username=username)
        return Response(
            {
                "records": [
                    {
                        "id": r.pk,
                        "action": r.action,
                        "moderator": r.moderator_name,
                        "reason": r.reason,
                        "target": r.target_user.username if r.target_user_id else None,
                        "game": str(r.game_id) if r.game_id else None,
                        "message": r.message_id,
                        "report": r.report_id,
                        "event_seq": r.event_seq,
                        "created_at": r.created_at.isoformat(),
                    }
                    for r in records[:500]
                ]
            }
        )
