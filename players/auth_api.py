"""API credentials: obtain and revoke a token, and a ticket to open a WebSocket with.

Sign-up (``players.views.SignupApi``) gives the first token. A ban deletes the account's
tokens (``community.services.moderation.ban_account``), so lifting it later does not bring an
old token back: the player asks for a new one.
"""

from __future__ import annotations

from django.conf import settings
from drf_spectacular.utils import OpenApiResponse, extend_schema, inline_serializer
from rest_framework import permissions, serializers
from rest_framework.authtoken.models import Token
from rest_framework.authtoken.views import ObtainAuthToken
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from games.api.responses import errors
from players import tickets


class TokenObtain(ObtainAuthToken):
    """``POST /api/auth/token/`` with username and password: the account's token (the
    same one until it is revoked). Limited per address, as the login page is."""

    # ObtainAuthToken turns throttling off; a password guesser is what the limit is for.
    throttle_classes = APIView.throttle_classes
    throttle_scope = "login"


class TokenRevoke(APIView):
    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(
        request=None,
        responses={204: OpenApiResponse(description="Token deleted."), **errors(401, 403)},
    )
    def post(self, request: Request) -> Response:
        """Delete the caller's token: it stops working at once, for every client that
        holds it. ``POST /api/auth/token/`` gives a new one."""
        Token.objects.filter(user=request.user).delete()
        return Response(status=204)


class WsTicket(APIView):
    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(
        request=None,
        responses={
            201: inline_serializer(
                "WsTicket",
                {"ticket": serializers.CharField(), "expires_in": serializers.IntegerField()},
            ),
            **errors(401, 403),
        },
    )
    def post(self, request: Request) -> Response:
        """A single-use ticket to open a WebSocket as yourself: connect within
        ``expires_in`` seconds to ``/ws/...?ticket=<ticket>``."""
        ticket = tickets.issue(request.user)
        return Response({"ticket": ticket, "expires_in": settings.WS_TICKET_SECONDS}, status=201)
