"""Quick match and the lobby's counts (``/api/quick-match/``, ``/api/lobby/counts/``):
views that translate HTTP to games.services (games/services/matchmaking.py)."""

from __future__ import annotations

from django.conf import settings
from drf_spectacular.utils import extend_schema
from rest_framework import permissions
from rest_framework import serializers as answers
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from games import services
from games.api import shortcuts
from games.api import strict as serializers
from games.api.responses import WRITE_TABLE, errors
from games.api.signed_in import signed_in_user


class QuickMatchRequestSerializer(serializers.Serializer):
    ruleset = serializers.CharField(max_length=40)
    seats = serializers.IntegerField(min_value=1, max_value=8)
    bots_after = serializers.IntegerField(
        required=False,
        allow_null=True,
        default=None,
        help_text="seconds before bots fill the empty seats (GET /api/lobby/counts/ "
        "lists the waits offered); null: never",
    )


class QuickMatchSerializer(answers.Serializer):
    status = answers.ChoiceField(choices=["idle", "waiting", "matched"])
    table = answers.UUIDField(required=False, help_text="matched: the table, started")
    ruleset = answers.CharField(required=False)
    seats = answers.IntegerField(required=False)
    bots_after = answers.IntegerField(required=False, allow_null=True)
    since = answers.DateTimeField(required=False)
    waiting = answers.IntegerField(required=False, help_text="players in this queue")


class GameCountsSerializer(answers.Serializer):
    playing = answers.IntegerField()
    looking = answers.IntegerField()


class LobbyCountsSerializer(answers.Serializer):
    in_lobby = answers.IntegerField(help_text="signed-in players with the lobby open")
    games = answers.DictField(child=GameCountsSerializer())
    waits = answers.ListField(child=answers.IntegerField())


class QuickMatch(APIView):
    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(responses={200: QuickMatchSerializer, **errors(401, 403)})
    def get(self, request: Request) -> Response:
        """Your quick-match request as it stands (its wait settled if it is over)."""
        return Response(services.quick_match_state(user=signed_in_user(request)))

    @extend_schema(
        request=QuickMatchRequestSerializer,
        responses={200: QuickMatchSerializer, **WRITE_TABLE},
    )
    def post(self, request: Request) -> Response:
        """Look for a game: with the next people asking for the same game and seats, or
        with bots after your wait."""
        body = shortcuts.valid(QuickMatchRequestSerializer, request.data)
        return Response(services.quick_match_join(user=signed_in_user(request), **body))

    @extend_schema(request=None, responses={204: None, **errors(401, 403)})
    def delete(self, request: Request) -> Response:
        """Stop looking."""
        services.quick_match_leave(user=signed_in_user(request))
        return Response(status=204)


class LobbyCounts(APIView):
    permission_classes = [permissions.AllowAny]

    @extend_schema(responses={200: LobbyCountsSerializer, **errors(401)})
    def get(self, request: Request) -> Response:
        """Per game, the players at tables in progress and those looking; how many have
        the lobby open (a signed-in caller counts as one of them from now)."""
        user = request.user
        counts = services.lobby_counts(present=user if user.is_authenticated else None)
        return Response({**counts, "waits": list(settings.QUICK_MATCH_WAITS)})
