"""A move right after this process's own write: one round trip, not two.

The write path's first round trip (games/services/locking.py) locks the game's row and
reads what a command needs: the row, its seats and the hash of the head event. A process
that wrote the head itself has all three as they were committed, and nothing of them
changes while the head stays put: every change to a game in progress (a move, a kick, a
player leaving, an abort, a clock running out) is an event. So the next command is
decided on the process's state and only the append is sent, with BEGIN and COMMIT
(games/round_trips.py); the log's unique (game, seq) is the check: had another process
appended since, the insert of the same seq fails, nothing is written, and the command
goes the locked way, which reads the truth first. So does any command that fails here
(an illegal move, a stale ``expected_seq``, a ``command_id`` recorded before, which the
unique (game, command_id) refuses): its answer always comes from the locked way.

What the process keeps is dropped when its sockets hear of a newer head
(``moved``: GameConsumer.game_advanced), and a game whose writes it has seen contended
takes the locked way from then on (the players of one table on different processes,
a bot worker and a web process), so a failed try costs a round trip once per game.
Only on PostgreSQL, whose write path fuses BEGIN and COMMIT into its statements.
"""

from __future__ import annotations

import copy
import threading
import uuid
from collections import OrderedDict
from dataclasses import dataclass

from django.db import connection

from games import store
from games.models import Game, Seat

KEPT = store.CACHE_SIZE


@dataclass(frozen=True)
class OwnHead:
    """A head this process committed: the row and seats as the write left them, and the
    hash of the head event."""

    game: Game
    seats: list[Seat]
    head_hash: str

    @property
    def seq(self) -> int:
        return self.game.head_seq

    @property
    def active_players(self) -> str:
        """The seats' players whose accounts are active, as the append's check reads them
        (games/store.py ``ACTIVE_PLAYERS``): a ban changes no event, yet a banned
        player's sockets must stop getting the seat's secrets at once."""
        return ",".join(
            str(user_id)
            for user_id in sorted(s.user_id for s in self.seats if s.user_id and s.user.is_active)
        )


class _OwnHeads:
    def __init__(self, size: int) -> None:
        self._size = size
        self._heads: OrderedDict[uuid.UUID, OwnHead] = OrderedDict()
        self._contended: OrderedDict[uuid.UUID, None] = OrderedDict()
        self._lock = threading.Lock()

    def remember(self, game: Game, seats: list[Seat], head_hash: str) -> None:
        """After a commit: keep copies (the caller answers from its own objects)."""
        game = copy.copy(game)
        kept = []
        for seat in seats:
            seat = copy.copy(seat)
            seat.game = game
            kept.append(seat)
        with self._lock:
            if game.pk in self._contended:
                return
            self._heads[game.pk] = OwnHead(game, kept, head_hash)
            self._heads.move_to_end(game.pk)
            while len(self._heads) > self._size:
                self._heads.popitem(last=False)

    def take(self, game_id: uuid.UUID | str, expected_seq: int | None) -> OwnHead | None:
        """The head this process wrote, for one command to build on (it is no longer
        kept), when the state at it is held too and ``expected_seq`` agrees."""
        key = _key(game_id)
        if connection.vendor != "postgresql" or key is None:
            return None
        with self._lock:
            own = self._heads.pop(key, None)
        if own is None or (expected_seq is not None and expected_seq != own.seq):
            return None
        if store.state_cache.held_seq(key) != own.seq:
            return None
        return own

    def held_seq(self, game_id: uuid.UUID) -> int | None:
        """The seq of the head kept for the game, if any (it stays kept)."""
        with self._lock:
            own = self._heads.get(game_id)
            return own.seq if own is not None else None

    def moved(self, game_id: uuid.UUID | str, head: int) -> None:
        """Another writer's head was announced: what this process wrote is behind."""
        key = _key(game_id)
        with self._lock:
            own = self._heads.get(key)  # type: ignore[arg-type]
            if own is not None and own.seq < head:
                del self._heads[key]  # type: ignore[arg-type]

    def contended(self, game_id: uuid.UUID) -> None:
        """Another process appended where this one tried: take the locked way for good."""
        with self._lock:
            self._heads.pop(game_id, None)
            self._contended[game_id] = None
            self._contended.move_to_end(game_id)
            while len(self._contended) > self._size:
                self._contended.popitem(last=False)

    def clear(self) -> None:
        with self._lock:
            self._heads.clear()
            self._contended.clear()


def _key(game_id: uuid.UUID | str) -> uuid.UUID | None:
    """The games' key (sockets name a game by its id as text); None: no game's."""
    if isinstance(game_id, uuid.UUID):
        return game_id
    try:
        return uuid.UUID(str(game_id))
    except ValueError:
        return None


own_heads = _OwnHeads(KEPT)
