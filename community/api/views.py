"""REST views for table chat and moderation (the URLs are in community/api/urls.py).

They translate HTTP to services (writes) and selectors (reads), nothing more; the
services check permissions again, so a view's permission class is only the first gate.
Kicking a seat changes the game: that view calls games' write path.
"""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.contrib.auth.models import User
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import permissions
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from community import selectors, services
from community.api import responses as answers
from community.api import serializers
from community.api.pagination import RecordPages, ReportPages
from community.models import Report
from games import selectors as game_selectors
from games import services as game_services
from games.api import responses as game_answers
from games.api import serializers as game_serializers
from games.api import shortcuts
from games.api.pagination import OffsetPages
from games.api.permissions import IsModerator
from games.api.responses import READ, READ_ONE, WRITE_ONE, WRITE_TABLE, errors
from games.api.signed_in import signed_in_user
from games.errors import NotFound


def _player(username: str) -> User:
    user = get_user_model().objects.filter(username=username).first()
    if user is None:
        raise NotFound("not_found", "No such player.")
    return user


def _page_parameters(pages: type[OffsetPages]) -> list[OpenApiParameter]:
    limit = f"1 to {pages.max_limit} (default {pages.default_limit})"
    return [
        OpenApiParameter("limit", int, description=limit),
        OpenApiParameter("offset", int, description="items to skip (default 0)"),
    ]


# ---- chat -----------------------------------------------------------------------------
class TableChat(APIView):
    """GET: the last visible messages (anyone). POST: say something (logged in)."""

    throttle_scope = "chat"  # posts only (players/throttles.py)

    @extend_schema(responses={200: answers.CHAT_HISTORY, **READ_ONE})
    def get(self, request: Request, game_id: str) -> Response:
        game = game_selectors.get_game(game_id)
        return Response({"messages": selectors.chat_history(game)})

    @extend_schema(
        request=serializers.ChatPostSerializer,
        responses={201: answers.ChatMessageSerializer, **WRITE_ONE, **errors(429)},
    )
    def post(self, request: Request, game_id: str) -> Response:
        body = shortcuts.valid(serializers.ChatPostSerializer, request.data)
        message = services.chat_post(
            game_id=game_id, user=signed_in_user(request), body=body["body"]
        )
        return Response(selectors.chat_message_json(message), status=201)


class BotChat(TableChat):
    """``POST /api/bot/game/<id>/chat/``: the table chat's POST, for the bot API."""

    http_method_names = ["post", "options"]


class PlayerBlock(APIView):
    """POST: that player may no longer challenge you. DELETE: lift it."""

    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(request=None, responses={200: answers.BLOCKED, **WRITE_ONE})
    def post(self, request: Request, username: str) -> Response:
        services.player_block(user=signed_in_user(request), blocked=_player(username))
        return Response({"blocked": username})

    @extend_schema(request=None, responses={204: None, **WRITE_ONE})
    def delete(self, request: Request, username: str) -> Response:
        services.player_unblock(user=signed_in_user(request), blocked=_player(username))
        return Response(status=204)


class ChatReport(APIView):
    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(
        request=serializers.ReportSerializer,
        responses={201: answers.REPORT_FILED, **WRITE_ONE},
    )
    def post(self, request: Request, message_id: int) -> Response:
        body = shortcuts.valid(serializers.ReportSerializer, request.data)
        report = services.chat_report(
            message_id=message_id, user=signed_in_user(request), reason=body["reason"]
        )
        return Response({"report": report.pk, "status": report.status}, status=201)


# ---- moderation -----------------------------------------------------------------------
class _Moderation(APIView):
    permission_classes = [IsModerator]


class ChatHide(_Moderation):
    @extend_schema(
        request=game_serializers.ReasonSerializer,
        responses={200: answers.MESSAGE_HIDDEN, **WRITE_ONE},
    )
    def post(self, request: Request, message_id: int) -> Response:
        body = shortcuts.valid(game_serializers.ReasonSerializer, request.data)
        message = services.message_hide(
            message_id=message_id, moderator=signed_in_user(request), reason=body["reason"]
        )
        return Response({"id": message.pk, "hidden": message.hidden})


class TableKick(_Moderation):
    @extend_schema(
        request=serializers.KickSerializer,
        responses={200: game_answers.TableDetailSerializer, **WRITE_TABLE},
    )
    def post(self, request: Request, game_id: str) -> Response:
        body = shortcuts.valid(serializers.KickSerializer, request.data)
        game_services.player_kick(
            game_id=game_id,
            moderator=signed_in_user(request),
            player=_player(body["username"]),
            reason=body["reason"],
        )
        return shortcuts.table_detail(request, game_id)


class PlayerMute(_Moderation):
    @extend_schema(
        request=serializers.MuteSerializer,
        responses={201: answers.MUTED, **WRITE_ONE},
    )
    def post(self, request: Request, username: str) -> Response:
        body = shortcuts.valid(serializers.MuteSerializer, request.data)
        mute = services.player_mute(
            player=_player(username),
            moderator=signed_in_user(request),
            reason=body["reason"],
            minutes=body["minutes"],
        )
        until = mute.until.isoformat() if mute.until else None
        return Response({"username": username, "muted_until": until}, status=201)


class PlayerUnmute(_Moderation):
    @extend_schema(
        request=game_serializers.ReasonSerializer,
        responses={200: answers.UNMUTED, **WRITE_ONE},
    )
    def post(self, request: Request, username: str) -> Response:
        body = shortcuts.valid(game_serializers.ReasonSerializer, request.data)
        lifted = services.player_unmute(
            player=_player(username), moderator=signed_in_user(request), reason=body["reason"]
        )
        return Response({"username": username, "lifted": lifted})


class PlayerBan(_Moderation):
    @extend_schema(
        request=game_serializers.ReasonSerializer,
        responses={200: answers.BANNED, **WRITE_ONE},
    )
    def post(self, request: Request, username: str) -> Response:
        body = shortcuts.valid(game_serializers.ReasonSerializer, request.data)
        kicks = services.account_ban(
            player=_player(username), moderator=signed_in_user(request), reason=body["reason"]
        )
        return Response({"username": username, "active": False, "tables_left": len(kicks)})


class PlayerUnban(_Moderation):
    @extend_schema(
        request=game_serializers.ReasonSerializer,
        responses={200: answers.UNBANNED, **WRITE_ONE},
    )
    def post(self, request: Request, username: str) -> Response:
        body = shortcuts.valid(game_serializers.ReasonSerializer, request.data)
        services.account_unban(
            player=_player(username), moderator=signed_in_user(request), reason=body["reason"]
        )
        return Response({"username": username, "active": True})


class ModerationQueue(_Moderation):
    @extend_schema(
        parameters=[
            OpenApiParameter(
                "status",
                str,
                description=f"one of {', '.join(Report.Status)} (default open); "
                "another value matches no report",
            ),
            *_page_parameters(ReportPages),
        ],
        responses={200: answers.REPORTS, **READ},
    )
    def get(self, request: Request) -> Response:
        status = request.query_params.get("status", Report.Status.OPEN)
        pages = ReportPages()
        page = pages.paginate_queryset(selectors.moderation_queue(status), request, view=self)
        # The pages have a default limit, so there always is a page.
        return pages.get_paginated_response([selectors.report_json(r) for r in page or []])


class ReportClose(_Moderation):
    resolved = True

    @extend_schema(
        request=serializers.NoteSerializer,
        responses={200: answers.REPORT_CLOSED, **WRITE_TABLE},
    )
    def post(self, request: Request, report_id: int) -> Response:
        body = shortcuts.valid(serializers.NoteSerializer, request.data)
        report = services.report_close(
            report_id=report_id,
            moderator=signed_in_user(request),
            resolved=self.resolved,
            note=body["note"],
        )
        return Response({"id": report.pk, "status": report.status})


class ReportDismiss(ReportClose):
    resolved = False


class ModerationRecords(_Moderation):
    @extend_schema(
        parameters=[
            OpenApiParameter("game", str),
            OpenApiParameter("username", str),
            *_page_parameters(RecordPages),
        ],
        responses={200: answers.RECORDS, **READ_ONE},
    )
    def get(self, request: Request) -> Response:
        game = request.query_params.get("game")
        records = selectors.moderation_records(
            game=game_selectors.get_game(game) if game else None,
            username=request.query_params.get("username"),
        )
        pages = RecordPages()
        page = pages.paginate_queryset(records, request, view=self)
        return pages.get_paginated_response([selectors.record_json(r) for r in page or []])
