"""A game at its head, as this process holds it: what a write decides on without a read.

The process keeps the head of recently used games (``heads``): the game's row, its
seats with their players, the table state and the hash of the head event. The write path
decides on what it holds and records conditionally on that head
(games/storage/recorder.py): when another process moved the game on, the write fails
cleanly and the writer loads the head again. A head held a few events behind is
fast-forwarded by folding the events after it, read from the log; otherwise the state is
loaded from the latest snapshot and the events after it. Either way a command's cost does
not grow with the game's length.
"""

from __future__ import annotations

import copy
import threading
import uuid
from collections import OrderedDict
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass

from django.conf import settings

from games import table as tables
from games.models import Game, Seat, Snapshot
from games.rules import get_ruleset
from games.storage.chain import GENESIS
from games.storage.log import events_between, head_hash, to_event

CACHE_SIZE = 256


@dataclass
class Head:
    """A game at its head: the row as of that head, the state after it (the holder may
    mutate it), the head event's hash (the next event's ``prev_hash``) and the seats with
    their players (None until read: a reader that loaded the state did not need them)."""

    game: Game
    table: tables.TableState
    hash: str
    seats: list[Seat] | None = None

    @property
    def seq(self) -> int:
        return self.game.head_seq


class HeadCache:
    """Per-process LRU of each game's head; thread-safe. A head is taken out while it is
    used (the taker may mutate its state) and put back when the taker is done."""

    def __init__(self, size: int) -> None:
        self._size = size
        self._entries: OrderedDict[uuid.UUID, Head] = OrderedDict()
        self._lock = threading.Lock()

    def take(self, game_id: uuid.UUID) -> Head | None:
        """Remove and return the head held for the game: the caller now owns it."""
        with self._lock:
            return self._entries.pop(game_id, None)

    def put(self, head: Head) -> None:
        """Hold ``head`` unless a later one is held already."""
        with self._lock:
            current = self._entries.get(head.game.id)
            if current is not None and current.seq > head.seq:
                return
            self._entries[head.game.id] = head
            self._entries.move_to_end(head.game.id)
            while len(self._entries) > self._size:
                self._entries.popitem(last=False)

    def clear(self) -> None:
        with self._lock:
            self._entries.clear()


heads = HeadCache(CACHE_SIZE)


def head_at(game: Game) -> Head:
    """The head at ``game.head_seq`` (``game``: the row as just read), owned by the
    caller: the one held, fast-forwarded if it is behind, else loaded. A new head keeps
    a copy of ``game``: a writer moves its head on, not the reader's row."""
    held = heads.take(game.id)
    if held is not None and held.seq == game.head_seq:
        return held
    ruleset = get_ruleset(game.ruleset)
    game = copy.copy(game)
    if held is not None and held.seq < game.head_seq <= held.seq + settings.SNAPSHOT_EVERY:
        table, hash_ = held.table, held.hash
        for row in events_between(game, held.seq, game.head_seq):
            table, hash_ = tables.apply(ruleset, table, to_event(row)), row.hash
        return Head(game, table, hash_)
    if held is not None and held.seq > game.head_seq:
        heads.put(held)  # the caller read an older row: the later head stays held
    snapshot = latest_snapshot(game)
    loaded = tables.load(ruleset, snapshot.state) if snapshot else None
    hash_ = (snapshot.head_hash if snapshot else "") or ""
    for row in events_between(game, snapshot.seq if snapshot else 0, game.head_seq):
        loaded, hash_ = tables.apply(ruleset, loaded, to_event(row)), row.hash
    assert loaded is not None, "a game with events has a state"
    return Head(game, loaded, hash_ or (head_hash(game) if game.head_seq else GENESIS))


def with_seats(head: Head) -> Head:
    """``head`` with its seats and their players read, if they were not yet."""
    if head.seats is None:
        head.seats = list(Seat.objects.filter(game=head.game).select_related("user"))
        for seat in head.seats:
            seat.game = head.game
    return head


def load_table(game: Game) -> tables.TableState:
    """A table state at ``game.head_seq`` that the caller owns and may mutate."""
    return head_at(game).table


def latest_snapshot(game: Game) -> Snapshot | None:
    """The game's latest snapshot at or before its head (its ``seq``, ``state`` and the
    hash of the event it was taken after)."""
    return (
        Snapshot.objects.filter(game=game, seq__lte=game.head_seq)
        .only("seq", "state", "head_hash")
        .order_by("-seq")
        .first()
    )


@contextmanager
def reading(game: Game) -> Iterator[tables.TableState]:
    """The table state at ``game.head_seq`` to read inside the block.

    The head is taken out of the cache while it is read, so a writer in another thread
    never mutates it under the reader (the writer then loads its own)."""
    head = head_at(game)
    try:
        yield head.table
    finally:
        heads.put(head)
