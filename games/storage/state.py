"""A game's table state at its head, without replaying the whole log per command.

The process keeps the state at the head of recently used games (``state_cache``). A state
held a few events behind the head (another process wrote them: the ingress sends a game's
sockets to one process, but its HTTP moves and its bots' turns may reach others) is
fast-forwarded by folding the events after it, read from the log; otherwise the state is
loaded from the latest snapshot and the events after it. Either way a command's cost does
not grow with the game's length.
"""

from __future__ import annotations

import threading
import uuid
from collections import OrderedDict
from collections.abc import Iterator
from contextlib import contextmanager

from django.conf import settings

from games import table as tables
from games.models import Game, Snapshot
from games.rules import get_ruleset
from games.storage.log import events_between, to_event

CACHE_SIZE = 256


class StateCache:
    """Per-process LRU of (head seq, table state) per game; thread-safe. A state is taken
    out while it is used (the taker may mutate it) and put back at a seq."""

    def __init__(self, size: int) -> None:
        self._size = size
        self._entries: OrderedDict[uuid.UUID, tuple[int, tables.TableState]] = OrderedDict()
        self._lock = threading.Lock()

    def take(self, game_id: uuid.UUID, seq: int) -> tables.TableState | None:
        """Remove and return the state at ``seq``: the caller now owns (and may mutate) it."""
        with self._lock:
            entry = self._entries.get(game_id)
            if entry is None or entry[0] != seq:
                return None
            del self._entries[game_id]
            return entry[1]

    def take_behind(self, game_id: uuid.UUID, seq: int) -> tuple[int, tables.TableState] | None:
        """Remove and return the state held at ``seq`` or before it, with its seq."""
        with self._lock:
            entry = self._entries.get(game_id)
            if entry is None or entry[0] > seq:
                return None
            del self._entries[game_id]
            return entry

    def put(self, game_id: uuid.UUID, seq: int, table: tables.TableState) -> None:
        with self._lock:
            current = self._entries.get(game_id)
            if current and current[0] > seq:
                return
            self._entries[game_id] = (seq, table)
            self._entries.move_to_end(game_id)
            while len(self._entries) > self._size:
                self._entries.popitem(last=False)

    def clear(self) -> None:
        with self._lock:
            self._entries.clear()


state_cache = StateCache(CACHE_SIZE)


def load_table(game: Game) -> tables.TableState:
    """A table state at ``game.head_seq`` that the caller owns and may mutate."""
    ruleset = get_ruleset(game.ruleset)
    held = state_cache.take_behind(game.id, game.head_seq)
    if held is not None:
        seq, table = held
        if seq == game.head_seq:
            return table
        if game.head_seq - seq <= settings.SNAPSHOT_EVERY:
            for row in events_between(game, seq, game.head_seq):
                table = tables.apply(ruleset, table, to_event(row))
            return table
    snapshot = latest_snapshot(game)
    loaded = tables.load(ruleset, snapshot.state) if snapshot else None
    for row in events_between(game, snapshot.seq if snapshot else 0, game.head_seq):
        loaded = tables.apply(ruleset, loaded, to_event(row))
    assert loaded is not None, "a game with events has a state"
    return loaded


def latest_snapshot(game: Game) -> Snapshot | None:
    """The game's latest snapshot at or before its head (its ``seq`` and ``state``)."""
    return (
        Snapshot.objects.filter(game=game, seq__lte=game.head_seq)
        .only("seq", "state")
        .order_by("-seq")
        .first()
    )


@contextmanager
def reading(game: Game) -> Iterator[tables.TableState]:
    """The table state at ``game.head_seq`` to read inside the block.

    The state is taken out of the cache while it is read, so a writer in another thread
    never mutates it under the reader (the writer then loads from the latest snapshot).
    """
    table = load_table(game)
    try:
        yield table
    finally:
        state_cache.put(game.id, game.head_seq, table)
