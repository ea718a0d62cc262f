"""A dependency that is down is a 503 with ``Retry-After``, never a 500.

Redis (the rate limits, the WebSocket tickets, the cache) and PostgreSQL (every read and
write) may go away for seconds: a restart, a failover, a network cut. A request that hits
one of them then is answered ``503 {"code": "unavailable", "message"}``, which clients
retry; nothing was written, or the write path's transaction rolled back.
"""

from __future__ import annotations

from django.db import InterfaceError, OperationalError
from psycopg import InterfaceError as PsycopgInterfaceError
from psycopg import OperationalError as PsycopgOperationalError
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import TimeoutError as RedisTimeoutError

# Seconds a client is asked to wait: about what a restarted dependency takes to serve.
RETRY_AFTER = 2
UNAVAILABLE = {
    "code": "unavailable",
    "message": "The service is briefly unavailable; try again in a few seconds.",
}
_DOWN = (
    RedisConnectionError,
    RedisTimeoutError,
    OperationalError,
    InterfaceError,
    PsycopgOperationalError,
    PsycopgInterfaceError,
)


def dependency_down(exc: BaseException | None) -> bool:
    """Whether ``exc`` (or what it was raised from) says Redis or PostgreSQL did not
    answer: a refused or dropped connection, a timeout, a server shutting down."""
    seen = 0
    while exc is not None and seen < 10:
        if isinstance(exc, _DOWN):
            return True
        exc = exc.__cause__ or exc.__context__
        seen += 1
    return False
