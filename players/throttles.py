"""Rate limits: DRF throttles counted in Django's cache (Redis in production, the
process's memory in the embedded mode).

A view opts in with ``throttle_scope``; only its writes count, so reading chat or a game
is never limited. The sign-up and login scopes count per client address (who is asking
does not matter to a password guesser); the others per player. A refusal is a 429 with
``Retry-After`` and ``{"code": "throttled", "message"}``.

On Redis the sliding window is a sorted set counted by one script, so a request is
counted and decided in one atomic round trip (DRF's cache throttle reads the history and
writes it back: two, and two concurrent requests of one player may both pass). The script
reaches Redis through the cache's own connection pool (infra/cache.py).
"""

from __future__ import annotations

import secrets
from typing import Any

from django.core.cache import DEFAULT_CACHE_ALIAS, caches
from django.core.cache.backends.redis import RedisCache
from django.http import HttpRequest
from redis.commands.core import Script
from rest_framework.permissions import SAFE_METHODS
from rest_framework.settings import api_settings
from rest_framework.throttling import SimpleRateThrottle

from infra.cache import redis_client

PER_ADDRESS = {"signup", "login"}

# The window in one atomic step: drop what left it, count, and add this request only when
# it is allowed; the answer carries the count after it, and a refusal the oldest
# request's time (Lua numbers come back as integers, so times go back as strings).
_SLIDING_WINDOW = """
local key, now, window, limit = KEYS[1], tonumber(ARGV[1]), tonumber(ARGV[2]), tonumber(ARGV[3])
redis.call('ZREMRANGEBYSCORE', key, '-inf', now - window)
local count = redis.call('ZCARD', key)
if count < limit then
  redis.call('ZADD', key, now, ARGV[4])
  redis.call('EXPIRE', key, math.ceil(window))
  return {1, ARGV[1], count + 1}
end
local oldest = redis.call('ZRANGE', key, 0, 0, 'WITHSCORES')
return {0, oldest[2] or ARGV[1], count}
"""
# EVALSHA, and EVAL once when the server does not know the script yet (a restart).
# The client is given at each call (redis_client()), so the script holds none.
_sliding_window = Script(None, _SLIDING_WINDOW.encode())  # type: ignore[arg-type]


class ScopedWriteThrottle(SimpleRateThrottle):
    """DRF's throttle for the views' writes, and through ``allow_user_write`` the count a
    socket's write takes (games/api/throttling.py), so both count in one window."""

    scope: str | None = None

    def __init__(self) -> None:
        # SimpleRateThrottle reads its rate here, before it knows the view's scope.
        pass

    def allow_request(self, request: Any, view: Any) -> bool:
        scope = getattr(view, "throttle_scope", None)
        if not scope or request.method in SAFE_METHODS:
            return True
        return self.allow_write(scope, self.ident_of(scope, request))

    def allow_user_write(self, scope: str, user: Any) -> bool:
        """Count one write of a signed-in ``user`` in ``scope`` (a socket's move or chat
        line: no request to read an address from)."""
        return self.allow_write(scope, f"user-{user.pk}")

    def allow_write(self, scope: str, ident: str) -> bool:
        """Count one write of ``ident`` in ``scope``: False (and ``wait()`` says how long)
        when over the scope's rate. A refused write does not count."""
        self.scope = scope
        self.rate = self.get_rate()
        if self.rate is None:
            return True
        self.num_requests, self.duration = self.parse_rate(self.rate)
        self.key = f"throttle:{scope}:{ident}"
        backend = caches[DEFAULT_CACHE_ALIAS]  # DRF's ``cache`` is a proxy to it
        limit, duration = self.num_requests, self.duration
        if limit is None or duration is None:
            return True
        if isinstance(backend, RedisCache):
            return self._allow_in_redis(backend, limit, duration)
        return self._allow_in_cache(limit, duration)

    def _allow_in_cache(self, limit: int, duration: int) -> bool:
        """DRF's sliding window in the cache (the embedded mode's memory), with its own
        ``throttle_success`` and ``throttle_failure``."""
        self.history = self.cache.get(self.key, [])
        self.now = self.timer()
        while self.history and self.history[-1] <= self.now - duration:
            self.history.pop()
        if len(self.history) >= limit:
            return self.throttle_failure()
        return self.throttle_success()

    def _allow_in_redis(self, backend: RedisCache, limit: int, duration: int) -> bool:
        """The same window kept in a Redis sorted set and counted by one script in one
        round trip."""
        key = backend.make_and_validate_key(self.key)
        self.now = self.timer()
        entry = f"{self.now:.6f}-{secrets.token_hex(4)}"
        allowed, oldest, _count = _sliding_window(
            keys=[key],
            args=[self.now, duration, limit, entry],
            client=redis_client(),
        )
        if allowed:
            return True
        # As DRF's wait() at a refusal: until the oldest request counted leaves the window.
        self.history = [float(oldest)] * limit
        return False

    def get_rate(self) -> str | None:
        # Read at each request (not at import), so a changed setting applies at once.
        # DRF's rates are "N/period" strings; its stubs say numbers.
        rates: dict[str, str | None] = api_settings.DEFAULT_THROTTLE_RATES  # type: ignore[assignment]
        return rates.get(self.scope) if self.scope is not None else None

    def ident_of(self, scope: str, request: Any) -> str:
        """Who a request's write counts for: its address in the sign-up and login scopes
        (a password guesser's account does not matter), else its signed-in player."""
        user = getattr(request, "user", None)
        if scope not in PER_ADDRESS and user is not None and user.is_authenticated:
            return f"user-{user.pk}"
        return f"addr-{self.get_ident(request)}"


def wait_seconds(scope: str, request: HttpRequest) -> int | None:
    """Count one write in ``scope`` outside DRF (the login and sign-up pages' POSTs): the
    seconds to wait when over the limit, else None."""
    throttle = ScopedWriteThrottle()
    if throttle.allow_write(scope, throttle.ident_of(scope, request)):
        return None
    return max(1, round(throttle.wait() or 1))
