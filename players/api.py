"""REST views for ratings: a game's leaderboard and a player's ratings."""

from __future__ import annotations

from django.contrib.auth import get_user_model
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import permissions
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from games.api import responses as answers
from games.api.responses import READ_ONE
from games.errors import NotFound, ServiceError
from games.rules import all_rulesets
from players import ratings


class Leaderboard(APIView):
    permission_classes = [permissions.AllowAny]

    @extend_schema(
        parameters=[OpenApiParameter("limit", int, description="1 to 500 (default 100)")],
        responses={200: answers.LeaderboardSerializer, **READ_ONE},
    )
    def get(self, request: Request, ruleset: str) -> Response:
        names = {r.key: r.name for r in all_rulesets()}
        if ruleset not in names:
            raise NotFound("unknown_ruleset", f"There is no game called {ruleset!r}.")
        try:
            limit = int(request.query_params.get("limit") or 100)
        except ValueError as exc:
            raise ServiceError("invalid", "limit must be a whole number.") from exc
        return Response(
            {
                "ruleset": ruleset,
                "ruleset_name": names[ruleset],
                "start_rating": 1500,
                "k_factor": ratings.K_FACTOR,
                "players": ratings.leaderboard(ruleset, max(1, min(limit, 500))),
            }
        )


class PlayerRatings(APIView):
    permission_classes = [permissions.AllowAny]

    @extend_schema(responses={200: answers.PLAYER_RATINGS, **READ_ONE})
    def get(self, request: Request, username: str) -> Response:
        user = get_user_model().objects.filter(username=username).first()
        if user is None:
            raise NotFound("not_found", "No such player.")
        return Response({"username": username, "ratings": ratings.ratings_for(user)})
