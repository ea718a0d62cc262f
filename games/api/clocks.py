"""REST views for clocks: time controls, and skipping or expelling a player out of time.

They translate HTTP to services (writes) and selectors (reads), nothing more.
"""

from __future__ import annotations

from drf_spectacular.utils import extend_schema
from rest_framework import permissions
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from games import clocks, services
from games.api import responses as answers
from games.api import serializers, shortcuts
from games.api.responses import READ, WRITE_TABLE
from games.api.signed_in import signed_in_user


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
        body = shortcuts.valid(serializers.SeatSerializer, request.data)
        services.game_skip(game_id=game_id, user=signed_in_user(request), seat=body["seat"])
        return shortcuts.table_detail(request, game_id)


class TableExpel(APIView):
    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(
        request=serializers.SeatSerializer,
        responses={200: answers.TableDetailSerializer, **WRITE_TABLE},
    )
    def post(self, request: Request, game_id: str) -> Response:
        body = shortcuts.valid(serializers.SeatSerializer, request.data)
        services.game_expel(game_id=game_id, user=signed_in_user(request), seat=body["seat"])
        return shortcuts.table_detail(request, game_id)
