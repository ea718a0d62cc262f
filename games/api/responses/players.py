"""Leaderboards, ratings, sign-up and the token endpoint."""

from __future__ import annotations

from typing import Any

from drf_spectacular.extensions import OpenApiViewExtension
from drf_spectacular.utils import extend_schema, inline_serializer
from rest_framework import serializers

from games.api.responses.errors import errors


# ---- players --------------------------------------------------------------------------
class LeaderboardRowSerializer(serializers.Serializer):
    rank = serializers.IntegerField()
    username = serializers.CharField()
    rating = serializers.IntegerField()
    games = serializers.IntegerField()
    updated_at = serializers.DateTimeField()


class LeaderboardSerializer(serializers.Serializer):
    ruleset = serializers.CharField()
    ruleset_name = serializers.CharField()
    start_rating = serializers.IntegerField()
    k_factor = serializers.FloatField()
    players = LeaderboardRowSerializer(many=True)


class PlayerRatingSerializer(serializers.Serializer):
    ruleset = serializers.CharField()
    ruleset_name = serializers.CharField()
    rating = serializers.IntegerField()
    games = serializers.IntegerField()
    rank = serializers.IntegerField()
    last_change = serializers.FloatField(allow_null=True)


PLAYER_RATINGS = inline_serializer(
    "PlayerRatings",
    {"username": serializers.CharField(), "ratings": PlayerRatingSerializer(many=True)},
)
SIGNED_UP = inline_serializer(
    "SignedUp", {"username": serializers.CharField(), "token": serializers.CharField()}
)


class ObtainAuthTokenFix(OpenApiViewExtension):
    """DRF's token view answers ``{"token"}``, not its request serializer (ours is a
    throttled subclass of it)."""

    target_class = "players.auth_api.TokenObtain"
    priority = 1  # over drf-spectacular's own, which documents the request as the answer

    def view_replacement(self) -> type:
        from rest_framework.authtoken.serializers import AuthTokenSerializer

        class Fixed(self.target_class):
            @extend_schema(
                auth=[],  # open to anyone: the credentials are in the body
                request=AuthTokenSerializer,
                responses={
                    200: inline_serializer("Token", {"token": serializers.CharField()}),
                    **errors(400, 401, 403, 413, 415, 429),
                },
            )
            def post(self, request: Any, *args: Any, **kwargs: Any) -> Any:
                return super().post(request, *args, **kwargs)

        return Fixed
