"""The players JSON API: leaderboards and ratings, sign-up, API tokens and WebSocket
tickets. (The HTML pages are in ``players.pages``.)

Views only translate HTTP: they read through ``players.selectors``, write through
``players.services`` and answer through ``players.serializers``. Sign-up gives the first
token. A ban deletes the account's tokens (``community.services.moderation.account_ban``), so
lifting it later does not bring an old token back: the player asks for a new one.
"""

from __future__ import annotations

from django.conf import settings
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import permissions
from rest_framework.authtoken.views import ObtainAuthToken
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from games.api.responses.errors import READ_ONE, errors
from games.api.signed_in import signed_in_user
from players import ratings, selectors, services
from players import serializers as out
from players.models import START_RATING


# ---- ratings ----------------------------------------------------------------------------
class Leaderboard(APIView):
    permission_classes = [permissions.AllowAny]

    @extend_schema(
        parameters=[
            OpenApiParameter("limit", int, description="1 to 500 (default 100)"),
            OpenApiParameter("offset", int, description="players to skip (default 0)"),
            OpenApiParameter("bots", str, description='"1" or "true": the bot accounts'),
        ],
        responses={200: out.LeaderboardSerializer, **READ_ONE},
    )
    def get(self, request: Request, ruleset: str) -> Response:
        name = selectors.ruleset_name(ruleset)
        paginator = out.LeaderboardPagination()
        bots = request.query_params.get("bots") in {"1", "true"}
        # The pagination has a default limit, so it always pages: rows and offset are set.
        rows = (
            paginator.paginate_queryset(selectors.leaderboard_rows(ruleset, bots), request, self)
            or []
        )
        first = (paginator.offset or 0) + 1
        board = {
            "ruleset": ruleset,
            "ruleset_name": name,
            "start_rating": START_RATING,
            "k_factor": ratings.K_FACTOR,
            "count": paginator.count,
            "next": paginator.get_next_link(),
            "previous": paginator.get_previous_link(),
            "players": [selectors.leaderboard_entry(row, first + i) for i, row in enumerate(rows)],
        }
        return Response(out.LeaderboardSerializer(board).data)


class PlayerList(APIView):
    permission_classes = [permissions.AllowAny]

    @extend_schema(responses={200: out.PlayerListSerializer, **errors(400, 401, 403)})
    def get(self, request: Request) -> Response:
        """Players to challenge: the bot accounts, then people who played this week."""
        return Response({"players": selectors.players_to_challenge()})


class PlayerRatings(APIView):
    permission_classes = [permissions.AllowAny]

    @extend_schema(responses={200: out.PlayerRatingsSerializer, **READ_ONE})
    def get(self, request: Request, username: str) -> Response:
        user = selectors.player_get(username)
        answer = {"username": username, "ratings": selectors.ratings_for(user)}
        return Response(out.PlayerRatingsSerializer(answer).data)


# ---- accounts and credentials -----------------------------------------------------------
class SignupApi(APIView):
    permission_classes = [permissions.AllowAny]
    authentication_classes: list = []
    throttle_scope = "signup"

    @extend_schema(
        request=out.SignupSerializer,
        responses={201: out.SignedUpSerializer, **errors(400, 409, 413, 415, 429)},
    )
    def post(self, request: Request) -> Response:
        serializer = out.SignupSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        user, token = services.account_create(**serializer.validated_data)
        answer = {"username": user.username, "token": token}
        return Response(out.SignedUpSerializer(answer).data, status=201)


class TokenObtain(ObtainAuthToken):
    """``POST /api/auth/token/`` with username and password: the account's token (the
    same one until it is revoked). Limited per address, as the login page is.
    (``players.serializers.ObtainAuthTokenFix`` documents its answer.)"""

    # ObtainAuthToken turns throttling off; a password guesser is what the limit is for.
    throttle_classes = APIView.throttle_classes
    throttle_scope = "login"
    # Its own parsers are DRF's plain ones; the configured ones hold bodies to the API's
    # rules (games/api/parsers.py).
    parser_classes = APIView.parser_classes


class TokenRevoke(APIView):
    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(
        request=None,
        responses={204: OpenApiResponse(description="Token deleted."), **errors(401, 403)},
    )
    def post(self, request: Request) -> Response:
        """Delete the caller's token: it stops working at once, for every client that
        holds it. ``POST /api/auth/token/`` gives a new one."""
        services.token_revoke(user=signed_in_user(request))
        return Response(status=204)


class WsTicket(APIView):
    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(request=None, responses={201: out.WsTicketSerializer, **errors(401, 403)})
    def post(self, request: Request) -> Response:
        """A single-use ticket to open a WebSocket as yourself: connect within
        ``expires_in`` seconds to ``/ws/...?ticket=<ticket>``."""
        answer = {
            "ticket": services.ws_ticket_issue(
                user=signed_in_user(request),
                token_key=getattr(request.auth, "key", None),
                session_key=None if request.auth is not None else request.session.session_key,
            ),
            "expires_in": settings.WS_TICKET_SECONDS,
        }
        return Response(out.WsTicketSerializer(answer).data, status=201)


class BotUpgrade(APIView):
    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(
        request=None,
        responses={
            200: OpenApiResponse(description='{"username", "bot": true}'),
            **errors(401, 403, 409),
        },
    )
    def post(self, request: Request) -> Response:
        """Turn your account, which has never played, into a bot account, for good."""
        services.bot_upgrade(user=signed_in_user(request))
        return Response({"username": request.user.get_username(), "bot": True})
