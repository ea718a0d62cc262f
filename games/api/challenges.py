"""Challenges and playing through the bot API (``/api/challenge/...``,
``/api/bot/game/<id>/...``): views that translate HTTP to games.services and
games.selectors, nothing more. The streams are in games/api/streams.py."""

from __future__ import annotations

from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import permissions
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from games import services
from games.api import moves, shortcuts
from games.api import responses as answers
from games.api import strict as serializers
from games.api.responses import WRITE_TABLE, errors
from games.api.serializers import CommandSerializer
from games.api.signed_in import signed_in_user
from games.models import Challenge
from games.selectors import challenges as challenge_reads

CHALLENGE = answers.ChallengeSerializer


class ChallengeCreateSerializer(serializers.Serializer):
    ruleset = serializers.CharField(max_length=40, required=False)
    options = serializers.DictField(required=False, default=dict)
    seats = serializers.IntegerField(required=False, min_value=1, max_value=8)
    time_control = serializers.JSONField(required=False, allow_null=True, default=None)
    table = serializers.UUIDField(
        required=False, help_text="your open challenge table: one more player into it"
    )

    def validate(self, attrs: dict) -> dict:
        if "ruleset" not in attrs and "table" not in attrs:
            raise serializers.ValidationError({"ruleset": ["Name the game (or a table)."]})
        return attrs


class DeclineSerializer(serializers.Serializer):
    reason = serializers.CharField(max_length=200, required=False, default="", allow_blank=True)


def _answer(challenge: Challenge, status: int = 200, direction: str = "in") -> Response:
    return Response(challenge_reads.challenge_json(challenge, direction=direction), status=status)


class _Authenticated(APIView):
    permission_classes = [permissions.IsAuthenticated]


class ChallengeList(_Authenticated):
    @extend_schema(
        responses={
            200: answers.ChallengesSerializer,
            **errors(401, 403),
        }
    )
    def get(self, request: Request) -> Response:
        """Your open challenges: ``in`` (to you) and ``out`` (yours)."""
        services.challenges_expire()
        return Response(challenge_reads.challenges_of(signed_in_user(request)))


class ChallengeCreate(_Authenticated):
    @extend_schema(
        request=ChallengeCreateSerializer, responses={201: CHALLENGE, **WRITE_TABLE, **errors(429)}
    )
    def post(self, request: Request, username: str) -> Response:
        body = shortcuts.valid(ChallengeCreateSerializer, request.data)
        challenge = services.challenge_create(
            challenger=signed_in_user(request), username=username, body=body
        )
        return _answer(challenge, 201, "out")


class ChallengeAccept(_Authenticated):
    @extend_schema(request=None, responses={200: CHALLENGE, **WRITE_TABLE})
    def post(self, request: Request, challenge_id: str) -> Response:
        return _answer(
            services.challenge_accept(challenge_id=challenge_id, user=signed_in_user(request))
        )


class ChallengeDecline(_Authenticated):
    @extend_schema(request=DeclineSerializer, responses={200: CHALLENGE, **WRITE_TABLE})
    def post(self, request: Request, challenge_id: str) -> Response:
        body = shortcuts.valid(DeclineSerializer, request.data)
        challenge = services.challenge_decline(
            challenge_id=challenge_id, user=signed_in_user(request), reason=body["reason"]
        )
        return _answer(challenge)


class ChallengeCancel(_Authenticated):
    @extend_schema(request=None, responses={200: CHALLENGE, **WRITE_TABLE})
    def post(self, request: Request, challenge_id: str) -> Response:
        challenge = services.challenge_cancel(
            challenge_id=challenge_id, user=signed_in_user(request)
        )
        return _answer(challenge, direction="out")


# ---- playing ----------------------------------------------------------------------------
class BotMove(_Authenticated):
    # The "commands" rate limit is counted by moves.move.
    throttle_classes: list = []

    @extend_schema(
        request=CommandSerializer,
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
        """A move, through the one way in for a move: the same answers as
        ``POST /api/tables/<id>/commands/``."""
        return moves.posted(request, game_id)


class BotResign(_Authenticated):
    @extend_schema(request=None, responses={200: answers.HeadSerializer, **WRITE_TABLE})
    def post(self, request: Request, game_id: str) -> Response:
        result = services.game_resign(game_id=game_id, user=signed_in_user(request))
        return Response({"head_seq": result.head_seq})


class BotAbort(_Authenticated):
    @extend_schema(request=None, responses={200: answers.HeadSerializer, **WRITE_TABLE})
    def post(self, request: Request, game_id: str) -> Response:
        """End a game nobody has moved in yet, without a result."""
        result = services.game_abort_unplayed(game_id=game_id, user=signed_in_user(request))
        return Response({"head_seq": result.head_seq})
