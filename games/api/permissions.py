"""Who may call an endpoint, before the service checks again."""

from __future__ import annotations

from rest_framework import permissions
from rest_framework.request import Request
from rest_framework.views import APIView

from games.services import can_moderate


class IsModerator(permissions.BasePermission):
    """Active staff with the ``games.moderate`` permission."""

    message = "Only a moderator can do that."

    def has_permission(self, request: Request, view: APIView) -> bool:
        return can_moderate(request.user)
