"""Reused request threads under ASGI.

Django runs each HTTP request's sync code (middleware, view, ORM) in a thread of its own:
``ASGIHandler`` enters a ``ThreadSensitiveContext`` per request, and asgiref starts a new
thread for it and joins it afterwards. Starting and joining a thread per request was ~6%
of a loaded server's CPU (py-spy, ``bench live``). This ASGI wrapper hands each request a
one-thread executor from a pool instead; Django's own context then nests inside it and
uses it. Database connections stay per thread and are still returned to the pool at the
end of each request (``CONN_MAX_AGE=0``), so a reused thread carries nothing over.
"""

from __future__ import annotations

import threading
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from asgiref.sync import ThreadSensitiveContext

# Idle executors kept for reuse; a burst beyond it starts threads as Django did.
KEEP_IDLE = 64


class _Executors:
    def __init__(self, keep: int) -> None:
        self._idle: list[ThreadPoolExecutor] = []
        self._keep = keep
        self._lock = threading.Lock()

    def take(self) -> ThreadPoolExecutor:
        with self._lock:
            if self._idle:
                return self._idle.pop()
        return ThreadPoolExecutor(max_workers=1, thread_name_prefix="request")

    def give_back(self, executor: ThreadPoolExecutor) -> None:
        with self._lock:
            if len(self._idle) < self._keep:
                self._idle.append(executor)
                return
        executor.shutdown(wait=False)


def reused_threads(app: Any, keep: int = KEEP_IDLE) -> Any:
    executors = _Executors(keep)

    async def application(scope: dict, receive: Any, send: Any) -> None:
        executor = executors.take()
        try:
            async with ThreadSensitiveContext(executor=executor):
                await app(scope, receive, send)
        finally:
            executors.give_back(executor)

    return application
