"""The account behind a request in a view that lets only signed-in users in (an API
view behind ``IsAuthenticated`` or ``IsModerator``, a moderator's admin action)."""

from __future__ import annotations

from django.contrib.auth.models import User
from django.http import HttpRequest
from rest_framework.exceptions import NotAuthenticated
from rest_framework.request import Request


def signed_in_user(request: Request | HttpRequest) -> User:
    """``request.user`` as the account it is once ``IsAuthenticated`` has passed (its
    type also allows AnonymousUser). Without an account: DRF's 401, as the permission."""
    user = request.user
    if not isinstance(user, User):
        raise NotAuthenticated()
    return user
