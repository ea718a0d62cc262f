"""Rate limits: DRF throttles counted in Django's cache (Redis in production, the
process's memory in the embedded mode).

A view opts in with ``throttle_scope``; only its writes count, so reading chat or a game
is never limited. The sign-up and login scopes count per client address (who is asking
does not matter to a password guesser); the others per player. A refusal is a 429 with
``Retry-After`` and ``{"code": "throttled", "message"}``.

A fast rate is told to Redis in batches. Asking Redis at every move was a round trip of
~0.1 ms of server CPU in a ~1.7 ms move (``bench live``, README "Performance"), so for a
rate of 2 or more a second (the moves' 600/min) a process counts a player's requests
itself and tells Redis every ``batch_size`` of them, each with its own time, in the round
trip that also decides the request that fills the batch. It counts itself only while
Redis's count at the last telling, plus what waits, plus a whole batch, stays within the
limit; nearer the limit every request asks Redis, as every request of a slower rate
(chat, sign-up, login) always does. So the window in Redis holds every request at its
own time, and a player can pass the limit by at most what the other processes have not
told yet (under one batch each). Lichess counts its rate limits in each node's memory
alone.
"""

from __future__ import annotations

import secrets
import threading
from collections import OrderedDict
from dataclasses import dataclass, field
from types import SimpleNamespace
from typing import Any

from django.core.cache import DEFAULT_CACHE_ALIAS, caches
from django.core.cache.backends.redis import RedisCache
from redis.commands.core import Script
from rest_framework.permissions import SAFE_METHODS
from rest_framework.settings import api_settings
from rest_framework.throttling import SimpleRateThrottle

PER_ADDRESS = {"signup", "login"}

# The window in one atomic step: drop what left it, add the requests this process allowed
# itself since it last told (ARGV[5...]: time, entry; they happened), count, and add this
# request only when it is allowed; the answer carries the count after it, and a refusal
# the oldest request's time (Lua numbers come back as integers, so times go back as
# strings). A script costs the client one command where a MULTI of the same steps costs
# six, each packed and answered.
_SLIDING_WINDOW = """
local key, now, window, limit = KEYS[1], tonumber(ARGV[1]), tonumber(ARGV[2]), tonumber(ARGV[3])
redis.call('ZREMRANGEBYSCORE', key, '-inf', now - window)
for i = 5, #ARGV, 2 do redis.call('ZADD', key, ARGV[i], ARGV[i + 1]) end
local count = redis.call('ZCARD', key)
if count < limit then
  redis.call('ZADD', key, now, ARGV[4])
  redis.call('EXPIRE', key, math.ceil(window))
  return {1, ARGV[1], count + 1}
end
if #ARGV > 4 then redis.call('EXPIRE', key, math.ceil(window)) end
local oldest = redis.call('ZRANGE', key, 0, 0, 'WITHSCORES')
return {0, oldest[2] or ARGV[1], count}
"""
# EVALSHA, and EVAL once when the server does not know the script yet (a restart).
_sliding_window = Script(None, _SLIDING_WINDOW.encode())


# A batch is at most a second's worth of the rate, and never more than this.
BATCH_LIMIT = 10
TALLIES_KEPT = 4096  # players counted in this process at once; the oldest are forgotten


def batch_size(num_requests: int, duration: float) -> int:
    """How many requests of a rate a process may count before telling Redis: 1 (every
    request asks) below 2 a second."""
    return max(1, min(BATCH_LIMIT, int(num_requests // max(duration, 1))))


@dataclass
class _Tally:
    """A player's requests in one scope as this process knows them."""

    told_at: float  # when Redis last answered for them
    count: int  # Redis's count in the window then, that request included
    waiting: list[tuple[float, str]] = field(default_factory=list)  # allowed here since


class _Tallies:
    def __init__(self, size: int = TALLIES_KEPT) -> None:
        self._size = size
        self._tallies: OrderedDict[tuple, _Tally] = OrderedDict()
        self._lock = threading.Lock()

    def count_here(
        self, key: tuple, now: float, entry: str, limit: int, batch: int, window: float
    ) -> bool:
        """Count the request in this process, if its batch and the limit leave room."""
        with self._lock:
            tally = self._tallies.get(key)
            if (
                tally is None
                or now - tally.told_at >= window
                or len(tally.waiting) + 1 >= batch
                or tally.count + len(tally.waiting) + batch > limit
            ):
                return False
            tally.waiting.append((now, entry))
            return True

    def take_waiting(self, key: tuple) -> list[tuple[float, str]]:
        """The requests counted here and not told yet; Redis is told them now."""
        with self._lock:
            tally = self._tallies.get(key)
            if tally is None:
                return []
            waiting, tally.waiting = tally.waiting, []
            return waiting

    def told(self, key: tuple, now: float, count: int) -> None:
        with self._lock:
            tally = self._tallies.get(key)
            if tally is None:
                tally = self._tallies[key] = _Tally(now, count)
            else:
                tally.told_at, tally.count = now, count
            self._tallies.move_to_end(key)
            while len(self._tallies) > self._size:
                self._tallies.popitem(last=False)  # its untold requests go uncounted

    def clear(self) -> None:
        with self._lock:
            self._tallies.clear()


tallies = _Tallies()


class ScopedWriteThrottle(SimpleRateThrottle):
    scope: str | None = None

    def __init__(self) -> None:
        # SimpleRateThrottle reads its rate here, before it knows the view's scope.
        pass

    def allow_request(self, request: Any, view: Any) -> bool:
        self.scope = getattr(view, "throttle_scope", None)
        if not self.scope or request.method in SAFE_METHODS:
            return True
        self.rate = self.get_rate()
        self.num_requests, self.duration = self.parse_rate(self.rate)
        backend = caches[DEFAULT_CACHE_ALIAS]  # DRF's ``cache`` is a proxy to it
        if self.rate is None or not isinstance(backend, RedisCache):
            return super().allow_request(request, view)
        self.key = self.get_cache_key(request, view)
        return self._allow_in_redis(backend)

    def _allow_in_redis(self, backend: RedisCache) -> bool:
        """DRF's sliding window, kept in a Redis sorted set and counted by one script in
        one round trip (DRF reads the history and writes it back: two, and concurrent
        requests of one player may both pass); a fast rate's requests told in batches
        (the module's docstring). A refused request does not count."""
        key = backend.make_and_validate_key(self.key)
        self.now = self.timer()
        entry = f"{self.now:.6f}-{secrets.token_hex(4)}"
        tally = (key, self.rate)
        batch = batch_size(self.num_requests, self.duration)
        if batch > 1 and tallies.count_here(
            tally, self.now, entry, self.num_requests, batch, self.duration
        ):
            return True
        waiting = [
            part
            for when, was in tallies.take_waiting(tally)
            if when > self.now - self.duration
            for part in (when, was)
        ]
        client = backend._cache.get_client(key, write=True)
        allowed, oldest, count = _sliding_window(
            keys=[key],
            args=[self.now, self.duration, self.num_requests, entry, *waiting],
            client=client,
        )
        tallies.told(tally, self.now, int(count))
        if allowed:
            return True
        # As DRF's wait() at a refusal: until the oldest request counted leaves the window.
        self.history = [float(oldest)] * self.num_requests
        return False

    def get_rate(self) -> str | None:
        # Read at each request (not at import), so a changed setting applies at once.
        return api_settings.DEFAULT_THROTTLE_RATES.get(self.scope)

    def get_cache_key(self, request: Any, view: Any) -> str:
        user = getattr(request, "user", None)
        if self.scope not in PER_ADDRESS and user is not None and user.is_authenticated:
            ident = f"user-{user.pk}"
        else:
            ident = f"addr-{self.get_ident(request)}"
        return f"throttle:{self.scope}:{ident}"


def wait_seconds(scope: str, request: Any) -> int | None:
    """Count one write in ``scope`` outside DRF (the login and sign-up pages; sockets use
    games.api.throttling): the seconds to wait when over the limit, else None. ``request`` needs
    ``user`` and ``META``."""
    throttle = ScopedWriteThrottle()
    allowed = throttle.allow_request(
        SimpleNamespace(method="POST", user=request.user, META=request.META),
        SimpleNamespace(throttle_scope=scope),
    )
    return None if allowed else max(1, round(throttle.wait() or 1))
