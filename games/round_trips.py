"""A write transaction in two round trips on PostgreSQL: BEGIN travels with the
transaction's first statement and COMMIT with its last write.

psycopg sends BEGIN in a round trip of its own before a transaction's first statement,
and Django's atomic sends COMMIT in another: two of a move's four (the locking read and
the append are the others). The eventsourcing library, the one-writer yardstick of
`bench commands`, pipelines its write with its COMMIT. Inside ``fused_transaction``:

- psycopg is told not to begin, and the first statement goes as ``BEGIN; <statement>``
  (one message on the simple-query protocol, which Django's client-side binding uses);
- a write handed to ``send_with_commit`` is held back. Any other statement sends it
  first, so statements keep their order; a block that ends normally sends it as
  ``<write>; COMMIT``. Django's own COMMIT then finds no transaction open and sends
  nothing, and its on-commit hooks run as usual;
- a block that raises drops the held write unsent, and Django's atomic rolls back.

Nothing else changes: the same statements run in the same transaction under the same
locks. Elsewhere (SQLite, or inside an outer transaction) it is ``transaction.atomic``
and ``send_with_commit`` executes at once.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from typing import Any

from django.db import connection, transaction


class _Fused:
    """Django execute wrapper: puts BEGIN on the first statement, holds the last write."""

    def __init__(self) -> None:
        self.begun = False
        self.held: tuple[str, Sequence[Any]] | None = None
        self.passing = False  # sending the held write itself: no wrapping

    def __call__(self, execute: Callable, sql: str, params: Any, many: bool, context: dict) -> Any:
        if self.passing:
            return execute(sql, params, many, context)
        self.send_held()
        if self.begun or many:
            if not self.begun:
                self._begin()
            return execute(sql, params, many, context)
        self.begun = True
        result = execute(f"BEGIN; {sql}", params, many, context)
        context["cursor"].nextset()  # past BEGIN's result, to the statement's rows
        return result

    def _begin(self) -> None:
        self.begun = True
        self._send("BEGIN", None)

    def hold(self, sql: str, params: Sequence[Any]) -> None:
        self.send_held()
        self.held = (sql, params)

    def send_held(self) -> None:
        if self.held is not None:
            held, self.held = self.held, None
            self._send(*held, begin=not self.begun)
            self.begun = True

    def commit(self) -> None:
        """Send the held write with COMMIT (or COMMIT alone, when a statement ran)."""
        if connection.needs_rollback:  # an inner atomic failed: Django rolls back
            self.held = None
            return
        if self.held is not None:
            (sql, params), self.held = self.held, None
            self._send(f"{sql}; COMMIT", params, begin=not self.begun)
        elif self.begun:
            self._send("COMMIT", None)

    def _send(self, sql: str, params: Sequence[Any] | None, begin: bool = False) -> None:
        self.passing = True
        try:
            with connection.cursor() as cursor:
                cursor.execute(f"BEGIN; {sql}" if begin else sql, params)
        finally:
            self.passing = False


def _active() -> _Fused | None:
    for wrapper in connection.execute_wrappers:
        if isinstance(wrapper, _Fused):
            return wrapper
    return None


@contextmanager
def fused_transaction() -> Iterator[None]:
    """``transaction.atomic()``, in two round trips fewer on PostgreSQL (see above)."""
    if connection.vendor != "postgresql" or connection.in_atomic_block:
        with transaction.atomic():
            yield
        return
    fused = _Fused()
    with transaction.atomic():
        # Django turned psycopg's autocommit off, which makes psycopg send BEGIN; the
        # first statement carries it instead. Django's atomic keeps its own bookkeeping
        # (on-commit hooks, savepoints, rollback on error), which reads its own flag.
        connection.connection.autocommit = True
        with connection.execute_wrapper(fused):
            yield
            fused.commit()


def send_with_commit(sql: str, params: Sequence[Any]) -> None:
    """Execute ``sql``; inside ``fused_transaction``, hold it to travel with COMMIT (or
    with the next statement, whichever comes first)."""
    fused = _active()
    if fused is None:
        with connection.cursor() as cursor:
            cursor.execute(sql, params)
    else:
        fused.hold(sql, params)
