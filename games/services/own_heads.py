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

A head another process wrote does the same for this one when its sockets hear it
(``heard``: GameConsumer.game_advanced) and the group message carries what that write
changed (``written``): the new events, the head's hash and the clock's deadline. What
the process kept then moves on to that head, the events waiting to be folded into its
state by the next command here (as the locking read's would be). So the players of one
table on different processes still move in one round trip each. A write that changed
more than that (the game ended, a seat's player left) carries nothing, and a message
that does not follow on from what the process kept (one was lost, or came out of order)
drops it: the next command goes the locked way. The message is the committed write
itself, published after its commit, so it is the truth at its head, as the process's
own write is; the channel layer carries it between the service's processes only, and a
socket sends nothing of it (GameConsumer sends the seats' pushed updates).

A game whose writes the process has seen contended takes the locked way from then on (a
bot worker and a web process both writing, a clock sweep), so a failed try costs a
round trip once per game. Only on PostgreSQL, whose write path fuses BEGIN and COMMIT
into its statements.
"""

from __future__ import annotations

import logging
import threading
import uuid
from collections import OrderedDict
from dataclasses import dataclass
from datetime import datetime
from typing import Any, TypeVar

from django.conf import settings
from django.db import connection
from django.db.models.base import ModelState

from games import store
from games.models import Game, GameEvent, Seat

log = logging.getLogger(__name__)
KEPT = store.CACHE_SIZE
Row = TypeVar("Row", Game, Seat)


@dataclass(frozen=True)
class OwnHead:
    """A head this process committed: the row and seats as the write left them, and the
    hash of the head event."""

    game: Game
    seats: list[Seat]
    head_hash: str
    # Events another process wrote after the state this process holds (None: it holds
    # the state at the head): folded by the next command, as the locking read's are.
    caught_up: store.CaughtUp | None = None

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

    @property
    def state_seq(self) -> int:
        """The seq the process must hold the game's state at to build on this head."""
        return self.seq if self.caught_up is None else self.caught_up.after

    def followed_by(self, written: dict[str, Any] | None, head: int) -> OwnHead | None:
        """This head moved on by another process's write (``written``, as
        ``head_written`` makes it) to ``head``; None when the message does not follow on
        from it. The row and seats move on in place: a kept head's objects are the
        keeper's alone (``remember`` keeps copies, ``take`` removes what it hands out)."""
        if (
            written is None
            or written["after"] != self.seq
            or written["after"] + len(written["events"]) != head
        ):
            return None
        after = store.CaughtUp.from_json(self.seq, written["events"])
        if self.caught_up is not None:
            after = store.CaughtUp(self.caught_up.after, self.caught_up.events + after.events)
        if len(after.events) > settings.SNAPSHOT_EVERY:  # a cold load costs no more
            return None
        deadline = written["deadline"]
        self.game.head_seq = head
        self.game.clock_deadline = None if deadline is None else datetime.fromisoformat(deadline)
        return OwnHead(self.game, self.seats, written["hash"], after)


def head_written(game: Game, rows: list[GameEvent], seats_changed: bool) -> dict[str, Any] | None:
    """What another process needs to build on the head this write made (``heard``): its
    events, the head's hash and the clock's deadline. None when the write changed more
    of the game than those (it ended, or a seat's player left)."""
    if (
        not rows
        or seats_changed
        or game.status != Game.Status.ACTIVE
        or connection.vendor != "postgresql"  # only there does ``take`` build on a head
    ):
        return None
    deadline = game.clock_deadline
    return {
        "after": rows[0].seq - 1,
        "hash": rows[-1].hash,
        "deadline": None if deadline is None else deadline.isoformat(),
        "events": [[row.type, row.public, row.private] for row in rows],
    }


def _copies(game: Game, seats: list[Seat]) -> tuple[Game, list[Seat]]:
    game = _copy_of(game)
    kept = []
    for seat in seats:
        seat = _copy_of(seat)
        seat.game = game
        kept.append(seat)
    return game, kept


def _copy_of(row: Row) -> Row:
    """A shallow copy of a model instance, as ``copy.copy`` makes it (a fresh state and
    cache of related rows) but without its round through pickling's protocol, which
    cost ~3% of a loaded server's time in this module."""
    clone = row.__class__.__new__(row.__class__)
    clone.__dict__.update(row.__dict__)
    clone._state = ModelState()
    clone._state.db, clone._state.adding = row._state.db, row._state.adding
    clone._state.fields_cache = dict(row._state.fields_cache)
    return clone


class _OwnHeads:
    def __init__(self, size: int) -> None:
        self._size = size
        self._heads: OrderedDict[uuid.UUID, OwnHead] = OrderedDict()
        self._contended: OrderedDict[uuid.UUID, None] = OrderedDict()
        self._lock = threading.Lock()

    def remember(self, game: Game, seats: list[Seat], head_hash: str) -> None:
        """After a commit: keep copies (the caller answers from its own objects)."""
        game, kept = _copies(game, seats)
        with self._lock:
            if game.pk in self._contended:
                return
            newer = self._heads.get(game.pk)
            if newer is not None and newer.seq > game.head_seq:
                return  # a later write's commit came first (the game's lock was free)
            self._heads[game.pk] = OwnHead(game, kept, head_hash)
            self._heads.move_to_end(game.pk)
            while len(self._heads) > self._size:
                self._heads.popitem(last=False)

    def take(self, game_id: uuid.UUID | str, expected_seq: int | None) -> OwnHead | None:
        """The head this process wrote (or heard another write, ``heard``), for one
        command to build on (it is no longer kept), when the state it builds on is held
        too and ``expected_seq`` agrees."""
        key = _key(game_id)
        if connection.vendor != "postgresql" or key is None:
            return None
        with self._lock:
            own = self._heads.pop(key, None)
        if own is None or (expected_seq is not None and expected_seq != own.seq):
            return None
        if store.state_cache.held_seq(key) not in (own.seq, own.state_seq):
            return None
        return own

    def held_seq(self, game_id: uuid.UUID) -> int | None:
        """The seq of the head kept for the game, if any (it stays kept)."""
        with self._lock:
            own = self._heads.get(game_id)
            return own.seq if own is not None else None

    def heard(self, game_id: uuid.UUID | str, head: int, written: dict[str, Any] | None) -> None:
        """A head announced on the game's group. Another process's moves what this one
        kept on to it, given what that write changed (``written``) and that it follows
        on; else what was kept is behind, and dropped."""
        key = _key(game_id)
        if key is None:
            return
        with self._lock:
            own = self._heads.get(key)
            if own is None or own.seq >= head:
                return
            try:
                moved_on = own.followed_by(written, head)
            except Exception:  # on a socket's event loop: the frame must still go out
                log.exception("could not follow game %s to head %s", key, head)
                moved_on = None
            if moved_on is None:
                del self._heads[key]
            else:
                self._heads[key] = moved_on

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
