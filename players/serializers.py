"""The players API's serializers: what sign-up reads, and what every players endpoint
answers (so the OpenAPI schema documents each answer), plus the leaderboard's paging.

The answers are built by ``players.selectors``; these serializers shape them, and
tests/games/api/test_responses.py checks the answers against the schema.
"""

from __future__ import annotations

from typing import Any

from drf_spectacular.extensions import OpenApiViewExtension
from drf_spectacular.utils import extend_schema
from rest_framework import serializers

from games.api import strict
from games.api.pagination import OffsetPages
from games.api.responses.errors import errors


# ---- requests ---------------------------------------------------------------------------
class SignupSerializer(serializers.Serializer):
    # Strict: a number is not a name or a password (DRF would take -25801 as "-25801").
    username = strict.RegexField(r"^[\w.@+-]{2,30}$", max_length=30)
    password = strict.CharField(min_length=8, max_length=128, write_only=True)


# ---- answers ----------------------------------------------------------------------------
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
    count = serializers.IntegerField(help_text="rated players in all (every page)")
    next = serializers.URLField(allow_null=True, help_text="the next page, or null")
    previous = serializers.URLField(allow_null=True, help_text="the previous page, or null")
    players = LeaderboardRowSerializer(many=True)


class PlayerRatingSerializer(serializers.Serializer):
    ruleset = serializers.CharField()
    ruleset_name = serializers.CharField()
    rating = serializers.IntegerField()
    games = serializers.IntegerField()
    rank = serializers.IntegerField()
    last_change = serializers.FloatField(allow_null=True)


class PlayerRatingsSerializer(serializers.Serializer):
    username = serializers.CharField()
    ratings = PlayerRatingSerializer(many=True)


class SignedUpSerializer(serializers.Serializer):
    username = serializers.CharField()
    token = serializers.CharField()


class WsTicketSerializer(serializers.Serializer):
    ticket = serializers.CharField()
    expires_in = serializers.IntegerField()


class TokenSerializer(serializers.Serializer):
    token = serializers.CharField()


# ---- paging -----------------------------------------------------------------------------
class LeaderboardPagination(OffsetPages):
    """``?limit=`` 1 to 500 (default 100; out of range is clamped) and
    ``?offset=``; a value that is not a whole number is a 400, not a silent default."""


# ---- schema fixes -----------------------------------------------------------------------
class ObtainAuthTokenFix(OpenApiViewExtension):
    """DRF's token view answers ``{"token"}``, not its request serializer (ours is a
    throttled subclass of it)."""

    target_class = "players.api.TokenObtain"
    priority = 1  # over drf-spectacular's own, which documents the request as the answer

    def view_replacement(self) -> type:
        from rest_framework.authtoken.serializers import AuthTokenSerializer

        # drf-spectacular has resolved the dotted path above to the view class by now.
        view: Any = self.target_class

        class Fixed(view):
            @extend_schema(
                auth=[],  # open to anyone: the credentials are in the body
                request=AuthTokenSerializer,
                responses={200: TokenSerializer, **errors(400, 401, 403, 413, 415, 429)},
            )
            def post(self, request: Any, *args: Any, **kwargs: Any) -> Any:
                return super().post(request, *args, **kwargs)

        return Fixed


class PlayerEntrySerializer(serializers.Serializer):
    username = serializers.CharField()
    bot = serializers.BooleanField(help_text="a bot account")


class PlayerListSerializer(serializers.Serializer):
    players = PlayerEntrySerializer(many=True)
