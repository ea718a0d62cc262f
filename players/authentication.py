"""API tokens, looked up in the shared cache before the database.

DRF's ``TokenAuthentication`` reads the token and its user from the database on every
request: a query before every move made over HTTP. ``CachedTokenAuthentication``
overrides its public ``authenticate_credentials`` to keep the answer in Django's cache
(Redis, shared by every process; one process's memory when embedded) for
``TOKEN_CACHE_SECONDS``. What would make the answer wrong deletes it, in every process at
once: the token revoked or replaced (``post_delete``/``post_save`` of the token) and the
account changed (``post_save`` of the user: a ban, an admin's change). The write path
checks the account's ``is_active`` again in the statement that records a move.
"""

from __future__ import annotations

import contextlib
import hashlib
from typing import Any

from django.conf import settings
from django.core.cache import cache
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import TimeoutError as RedisTimeoutError
from rest_framework.authentication import TokenAuthentication
from rest_framework.authtoken.models import Token


def cache_key(key: str) -> str:
    # Hashed: a cache key is seen by anyone who can read the cache; a token is a secret.
    return f"api-token.{hashlib.sha256(key.encode()).hexdigest()}"


class CachedTokenAuthentication(TokenAuthentication):
    def authenticate_credentials(self, key: str) -> tuple[Any, Any]:
        """DRF's answer (``(user, token)``, or AuthenticationFailed for an unknown token or
        an inactive account), from the cache when another request already had it."""
        try:
            found = cache.get(cache_key(key))
        except (RedisConnectionError, RedisTimeoutError):
            found = None  # Redis away: the database answers, as without the cache
        if found is not None:
            return found
        user, token = super().authenticate_credentials(key)
        with contextlib.suppress(RedisConnectionError, RedisTimeoutError):
            cache.set(cache_key(key), (user, token), settings.TOKEN_CACHE_SECONDS)
        return user, token


def forget(key: str) -> None:
    """The token's cached answer is no longer true. A Redis that is away fails the write
    that called this (a 503), rather than leaving the answer cached."""
    cache.delete(cache_key(key))


def forget_account(user_id: int) -> None:
    """The cached answers of every token of the account."""
    for key in Token.objects.filter(user_id=user_id).values_list("key", flat=True):
        forget(key)
