"""API tokens, looked up by a statement written once (games/rows.py).

DRF's ``TokenAuthentication`` builds ``Token.objects.select_related("user").get(key=...)``
through the ORM on every request: building it cost more CPU than the whole write of a
move's events. This is the same lookup and the same answers (the token and its user;
"Invalid token." and "User inactive or deleted." as 401s), read in one statement,
prepared once per pooled connection (games/prepared.py).
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from django.contrib.auth import get_user_model
from django.db import connection
from django.utils.translation import gettext_lazy as _
from rest_framework import authentication, exceptions
from rest_framework.authtoken.models import Token

from games import prepared
from games.rows import Columns

# What authentication, permissions and throttles read of a request's user and token. The
# rest (the password hash, names, e-mail and three timestamps, whose loaders are Python)
# stays unread: a fifth of the lookup's CPU (229-256 v 268-349 us a lookup, three pairs).
TOKEN_FIELDS = ["key", "user"]
USER_FIELDS = ["id", "username", "is_active", "is_staff", "is_superuser"]


class TokenAuthentication(authentication.TokenAuthentication):
    def authenticate_credentials(self, key: str) -> tuple[Any, Token]:
        token = token_with_user(key)
        if token is None:
            raise exceptions.AuthenticationFailed(_("Invalid token."))
        if not token.user.is_active:
            raise exceptions.AuthenticationFailed(_("User inactive or deleted."))
        return token.user, token


def token_with_user(key: str) -> Token | None:
    """The token ``key`` with its user: the fields a request reads (``USER_FIELDS``); any
    other field of either loads on first use, as a deferred field does."""
    tokens, users, sql = _statement(connection.vendor)
    with connection.cursor() as cursor:
        cursor.execute(prepared.execute_form(sql), [key])
        row = cursor.fetchone()
    if row is None:
        return None
    token = tokens.make(row, 0)
    token.user = users.make(row, len(tokens))
    return token


@lru_cache(maxsize=4)
def _statement(vendor: str) -> tuple[Columns, Columns, str]:
    quote = connection.ops.quote_name
    user_model = get_user_model()
    tokens, users = Columns(Token, "t", TOKEN_FIELDS), Columns(user_model, "u", USER_FIELDS)
    sql = (
        f"SELECT {', '.join([*tokens.sql, *users.sql])} "
        f"FROM {quote(Token._meta.db_table)} t "
        f"JOIN {quote(user_model._meta.db_table)} u ON u.id = t.user_id "
        f"WHERE t.{quote(Token._meta.pk.column)} = %s"
    )
    return tokens, users, sql
