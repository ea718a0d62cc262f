"""REST views: they translate HTTP to services (writes) and selectors (reads), nothing more."""

from __future__ import annotations

from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import permissions
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from games import selectors, services
from games.api import moves, serializers, shortcuts
from games.api import responses as answers
from games.api.pagination import TablePages
from games.api.permissions import IsModerator
from games.api.responses import READ, READ_ONE, WRITE, WRITE_ONE, WRITE_TABLE, errors
from games.api.signed_in import signed_in_user
from games.errors import ServiceError
from games.models import Game
from games.rules import all_rulesets
from games.rules.kingdom_builder.board import board_data
from games.rules.kingdom_builder.opening import section_label
from games.services import moderation


def _parse_int(value: str | None, name: str, default: int) -> int:
    if value in (None, ""):
        return default
    try:
        return int(value)
    except ValueError as exc:
        raise ServiceError("invalid", f"{name} must be a whole number.") from exc


class RulesetList(APIView):
    permission_classes = [permissions.AllowAny]

    @extend_schema(responses={200: answers.RulesetSerializer(many=True), **READ})
    def get(self, request: Request) -> Response:
        return Response(
            [
                {
                    "key": r.key,
                    "name": r.name,
                    "version": r.version,
                    "min_players": r.min_players,
                    "max_players": r.max_players,
                    "options": [o.as_json() for o in r.options],
                }
                for r in all_rulesets()
            ]
        )


class BoardSections(APIView):
    """Kingdom Builder's board sections as terrain grids, for a form's thumbnails."""

    permission_classes = [permissions.AllowAny]

    @extend_schema(responses={200: answers.BoardSectionSerializer(many=True), **READ})
    def get(self, request: Request) -> Response:
        return Response(
            [
                {
                    "name": name,
                    "label": section_label(name),
                    "expansion": data["expansion"],
                    "rows": list(data["rows"]),
                }
                for name, data in board_data()["sections"].items()
            ]
        )


class TableList(APIView):
    @extend_schema(
        operation_id="tables_list",
        parameters=[
            OpenApiParameter("ruleset", str),
            # Read leniently: an unknown status matches no table, and only "1" or "true"
            # turns "mine" on, so both are plain strings here.
            OpenApiParameter("status", str, description=f"one of {', '.join(Game.Status)}"),
            OpenApiParameter("mine", str, description='"1" or "true": only tables you sit at'),
            OpenApiParameter("limit", int, description="tables per page, 1 to 200 (default 50)"),
            OpenApiParameter("cursor", str, description="the page: from a page's next/previous"),
        ],
        responses={200: answers.TablePageSerializer, **READ},
    )
    def get(self, request: Request) -> Response:
        games = selectors.table_list(
            request.user,
            ruleset=request.query_params.get("ruleset"),
            status=request.query_params.get("status"),
            mine=request.query_params.get("mine") in {"1", "true"},
        )
        pages = TablePages()
        page = pages.paginate_queryset(games, request, view=self)
        # The pages have a default limit, so there always is a page.
        return pages.get_paginated_response(selectors.table_summaries(page or []))

    @extend_schema(
        request=serializers.TableCreateSerializer,
        responses={201: answers.TableDetailSerializer, **WRITE},
    )
    def post(self, request: Request) -> Response:
        body = shortcuts.valid(serializers.TableCreateSerializer, request.data)
        game = services.table_create(user=signed_in_user(request), **body)
        return Response(selectors.table_detail(game, request.user), status=201)


class TableDetail(APIView):
    @extend_schema(responses={200: answers.TableDetailSerializer, **READ_ONE})
    def get(self, request: Request, game_id: str) -> Response:
        return Response(selectors.table_detail(selectors.get_game(game_id), request.user))


class _TableAction(APIView):
    permission_classes = [permissions.IsAuthenticated]

    def done(self, request: Request, game_id: str, status: int = 200) -> Response:
        return shortcuts.table_detail(request, game_id, status)


class TableJoin(_TableAction):
    @extend_schema(request=None, responses={200: answers.TableDetailSerializer, **WRITE_TABLE})
    def post(self, request: Request, game_id: str) -> Response:
        services.table_join(game_id=game_id, user=signed_in_user(request))
        return self.done(request, game_id)


class TableLeave(_TableAction):
    @extend_schema(request=None, responses={200: answers.TableDetailSerializer, **WRITE_TABLE})
    def post(self, request: Request, game_id: str) -> Response:
        services.table_leave(game_id=game_id, user=signed_in_user(request))
        return self.done(request, game_id)


class TableStart(_TableAction):
    @extend_schema(request=None, responses={200: answers.TableDetailSerializer, **WRITE_TABLE})
    def post(self, request: Request, game_id: str) -> Response:
        services.game_start(game_id=game_id, user=signed_in_user(request))
        return self.done(request, game_id)


class TableRematch(_TableAction):
    @extend_schema(request=None, responses={201: answers.TableDetailSerializer, **WRITE_TABLE})
    def post(self, request: Request, game_id: str) -> Response:
        rematch = services.table_rematch(game_id=game_id, user=signed_in_user(request))
        return Response(selectors.table_detail(rematch, request.user), status=201)


class TableBots(_TableAction):
    @extend_schema(
        request=serializers.BotAddSerializer,
        responses={201: answers.TableDetailSerializer, **WRITE_TABLE},
    )
    def post(self, request: Request, game_id: str) -> Response:
        body = shortcuts.valid(serializers.BotAddSerializer, request.data)
        services.bot_add(game_id=game_id, user=signed_in_user(request), level=body["level"])
        return self.done(request, game_id, 201)


class TableBotDetail(_TableAction):
    @extend_schema(request=None, responses={200: answers.TableDetailSerializer, **WRITE_TABLE})
    def delete(self, request: Request, game_id: str, seat_id: int) -> Response:
        services.bot_remove(game_id=game_id, user=signed_in_user(request), seat_id=seat_id)
        return self.done(request, game_id)


class TableResign(_TableAction):
    @extend_schema(request=None, responses={200: answers.TableDetailSerializer, **WRITE_TABLE})
    def post(self, request: Request, game_id: str) -> Response:
        services.game_resign(game_id=game_id, user=signed_in_user(request))
        return self.done(request, game_id)


class TableAbort(_TableAction):
    permission_classes = [IsModerator]

    @extend_schema(
        request=serializers.AbortSerializer,
        responses={200: answers.TableDetailSerializer, **WRITE_TABLE},
    )
    def post(self, request: Request, game_id: str) -> Response:
        body = shortcuts.valid(serializers.AbortSerializer, request.data)
        services.game_abort(
            game_id=game_id, staff_user=signed_in_user(request), reason=body["reason"]
        )
        return self.done(request, game_id)


class TableDisconnect(_TableAction):
    """Close every socket of a game: clients reconnect and catch up by seq (moderation,
    recorded with who and why like the other moderation actions)."""

    permission_classes = [IsModerator]

    @extend_schema(
        request=serializers.ReasonSerializer,
        responses={200: answers.DISCONNECTED, **WRITE_ONE},
    )
    def post(self, request: Request, game_id: str) -> Response:
        body = shortcuts.valid(serializers.ReasonSerializer, request.data)
        moderation.streams_close(
            game_id=game_id, moderator=signed_in_user(request), reason=body["reason"]
        )
        return Response({"closed": True})


class TableCommands(_TableAction):
    # The "commands" rate limit is counted by moves.move, for the socket's moves too.
    throttle_classes: list = []

    @extend_schema(
        request=serializers.CommandSerializer,
        responses={
            201: answers.SubmittedSerializer,
            200: OpenApiResponse(
                answers.SubmittedSerializer, description="a retry of a recorded command_id"
            ),
            **WRITE_TABLE,
            **errors(429),
        },
    )
    def post(self, request: Request, game_id: str) -> Response:
        # Its news is published by news_middleware, on the request's own event loop.
        return moves.posted(request, game_id)


class TableLegal(APIView):
    @extend_schema(responses={200: answers.LegalSerializer, **READ_ONE})
    def get(self, request: Request, game_id: str) -> Response:
        game = selectors.get_game(game_id)
        seat = selectors.viewer_seat(game, request.user)
        return Response(
            {
                "seq": game.head_seq,
                "seat": seat,
                "commands": selectors.legal_commands(game, seat),
            }
        )


class TableEvents(APIView):
    @extend_schema(
        parameters=[
            OpenApiParameter("after", int, description="events after this seq (default 0)"),
            OpenApiParameter("limit", int, description="1 to 1000 (default 500)"),
        ],
        responses={200: answers.EventsSerializer, **READ_ONE},
    )
    def get(self, request: Request, game_id: str) -> Response:
        game = selectors.get_game(game_id)
        seat = selectors.viewer_seat(game, request.user)
        after = _parse_int(request.query_params.get("after"), "after", 0)
        limit = max(1, min(_parse_int(request.query_params.get("limit"), "limit", 500), 1000))
        return Response(
            {
                "head_seq": game.head_seq,
                "events": selectors.events_after(game, seat, after, limit),
            }
        )


class TableView(APIView):
    @extend_schema(
        parameters=[
            OpenApiParameter("at", int, description="the view just after this event seq"),
            OpenApiParameter("spectator", str, description='"1" or "true": the public view'),
        ],
        responses={200: answers.ViewSerializer, **READ_ONE},
    )
    def get(self, request: Request, game_id: str) -> Response:
        """The requester's view at the head, or just after event ``at`` (replays);
        ``spectator=1`` asks for the public view even from a seat (the audit page)."""
        game = selectors.get_game(game_id)
        seat = selectors.viewer_seat(game, request.user)
        if request.query_params.get("spectator") in {"1", "true"}:
            seat = None
        at = request.query_params.get("at")
        if at in (None, ""):
            return Response(selectors.game_view(game, seat))
        if game.head_seq == 0:
            return Response({"seq": 0, "state": None})
        return Response(selectors.view_at(game, seat, _parse_int(at, "at", game.head_seq)))
