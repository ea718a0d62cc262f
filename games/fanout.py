"""The game stream's fan-out: each audience's update is computed once per (game, head,
seat) in a process and shared by every socket of that audience.

A group message only says "the head moved" (``publish.game_advanced``): no game data
crosses the channel layer. The first socket of a process to hear it reads the game row
with its seats (one statement) and the new events once, brings the state the process holds up to the
new head with those events (or loads it), and computes for every audience with a socket
here the redacted events (``selectors.redacted_events``), the view (``selectors.view_of``)
and, for a seat that may act, its legal commands. The other sockets of that audience then
send the same frame. Seats are read again at every head, so a departure (an event) or a
ban (followed by a kick event) drops that seat's secrets from the next frame on.
"""

from __future__ import annotations

import threading
import uuid
from collections import OrderedDict
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError
from django.db import connection
from django.utils import timezone

from games import clocks, prepared, selectors, store
from games import table as tables
from games.errors import NotFound
from games.json_output import encode
from games.models import Game, GameEvent
from games.models import Seat as SeatRow  # here Seat is a rules seat number
from games.rows import Columns
from games.rules import get_ruleset

# Games whose latest head a process keeps (a few kilobytes each: views and frames).
CACHE_SIZE = 512
# At most this many events in one frame, as before: a client further behind asks by seq.
MAX_EVENTS = 1000
Seat = int | None


@dataclass
class Head:
    """What every socket of a process needs about one game at one head."""

    game: Game  # the row as read at this head
    viewers: dict[int, int]  # user id → the seat whose secrets they see
    names: dict[int, str]
    after: int  # ``rows`` are the events after this seq, up to the head
    rows: list[GameEvent]
    updates: dict[Seat, dict[str, Any]] = field(default_factory=dict)
    frames: dict[tuple[Seat, int], str] = field(default_factory=dict)

    @property
    def seq(self) -> int:
        return self.game.head_seq

    def seat_of(self, user_id: int | None) -> Seat:
        return self.viewers.get(user_id) if user_id is not None else None


@dataclass(frozen=True)
class News:
    seat: Seat
    frame: str | None  # None: nothing new to send
    last_seq: int | None  # the last event sent, if any


class _Heads:
    """LRU of the latest ``Head`` per game, and which users watch each game here."""

    def __init__(self, size: int) -> None:
        self._size = size
        self._heads: OrderedDict[uuid.UUID, Head] = OrderedDict()
        self._watchers: dict[uuid.UUID, dict[str, int | None]] = {}
        self._lock = threading.Lock()

    def get(self, game_id: uuid.UUID) -> Head | None:
        with self._lock:
            return self._heads.get(game_id)

    def put(self, game_id: uuid.UUID, head: Head) -> None:
        with self._lock:
            current = self._heads.get(game_id)
            if current is not None and current.seq > head.seq:
                return
            self._heads[game_id] = head
            self._heads.move_to_end(game_id)
            while len(self._heads) > self._size:
                self._heads.popitem(last=False)

    def watch(self, game_id: uuid.UUID, channel: str, user_id: int | None) -> None:
        with self._lock:
            self._watchers.setdefault(game_id, {})[channel] = user_id

    def unwatch(self, game_id: uuid.UUID, channel: str) -> None:
        with self._lock:
            watchers = self._watchers.get(game_id, {})
            watchers.pop(channel, None)
            if not watchers:
                self._watchers.pop(game_id, None)
                self._heads.pop(game_id, None)

    def watching(self, game_id: uuid.UUID) -> set[int | None]:
        with self._lock:
            return set(self._watchers.get(game_id, {}).values())

    def clear(self) -> None:
        with self._lock:
            self._heads.clear()
            self._watchers.clear()


heads = _Heads(CACHE_SIZE)
watch = heads.watch
unwatch = heads.unwatch


def news(
    game_id: uuid.UUID, user_id: int | None, sent_seq: int, *, head: int = 0, fresh: bool = False
) -> News:
    """The frame for a socket of ``user_id`` that has sent events up to ``sent_seq`` and
    heard that the game reached ``head``. ``fresh`` (connect, resync): read the game and
    its seats now, and send the frame even without new events."""
    # Should sockets hear a head in several threads at once, the first computes it and
    # the others wait and share it (the state it takes from the cache is taken once).
    with _game_locks[hash(str(game_id)) % len(_game_locks)]:
        current = heads.get(game_id)
        if fresh or current is None or current.seq < head:
            game, seats = read_game_and_seats(game_id)
            current = _advance(game, seats, current, sent_seq)
        seat = current.seat_of(user_id)
        return _frame(current, seat, sent_seq, fresh)


_game_locks = [threading.Lock() for _ in range(64)]


def cached_news(game_id: uuid.UUID, user_id: int | None, sent_seq: int, head: int) -> News | None:
    """``news`` when the process already holds everything it needs (no database, so the
    consumer need not hop to a thread), else None."""
    current = heads.get(game_id)
    if current is None or current.seq < head or sent_seq < current.after:
        return None
    seat = current.seat_of(user_id)
    if seat not in current.updates:
        return None
    return _frame(current, seat, sent_seq, fresh=False)


def _advance(game: Game, seats: list[SeatRow], previous: Head | None, sent_seq: int) -> Head:
    viewers, names = selectors.seat_directory(game, seats)
    if previous is not None and (previous.seq, previous.game.status) == (
        game.head_seq,
        game.status,
    ):
        # Nothing moved (a resync, a reconnect): only the seats are read afresh.
        current = Head(game, viewers, names, previous.after, previous.rows, previous.updates)
    else:
        after = max(0, min(sent_seq, game.head_seq), game.head_seq - MAX_EVENTS)
        rows = read_events(game, after, game.head_seq)
        current = Head(game, viewers, names, after, rows)
        wanted = {current.seat_of(user) for user in heads.watching(game.id)}
        _compute(current, wanted, previous)
    heads.put(game.id, current)
    return current


def read_game_and_seats(game_id: uuid.UUID | str) -> tuple[Game, list[SeatRow]]:
    """The game's row and its seats with their players (name, active), in one statement
    (games/rows.py): the read every head costs a process."""
    statement = _head_statement(connection.vendor)
    try:
        key = statement.game_key(game_id)
    except (ValidationError, ValueError, TypeError, AttributeError) as exc:
        raise NotFound("not_found", "No such table.") from exc
    with connection.cursor() as cursor:
        cursor.execute(prepared.execute_form(statement.sql), [key])
        rows = cursor.fetchall()
    if not rows:
        raise NotFound("not_found", "No such table.")
    game = statement.game.make(rows[0], 0)
    seats = []
    for row in rows:
        if row[statement.seat_at] is None:
            continue
        seat = statement.seat.make(row, statement.seat_at)
        seat.game = game
        if row[statement.user_at] is not None:
            seat.user = statement.user.make(row, statement.user_at)
        seats.append(seat)
    return game, seats


def read_events(game: Game, after: int, upto: int) -> list[GameEvent]:
    """The events after seq ``after`` up to ``upto`` (at most ``MAX_EVENTS``), in order."""
    return store.events_between(game, after, upto, limit=MAX_EVENTS)


class _HeadStatement:
    def __init__(self) -> None:
        quote = connection.ops.quote_name
        user_model = get_user_model()
        self.game = Columns(Game, "g")
        self.seat = Columns(SeatRow, "s")
        self.user = Columns(user_model, "u", ["id", user_model.USERNAME_FIELD, "is_active"])
        self.seat_at = len(self.game)
        self.user_at = self.seat_at + len(self.seat)
        self.sql = (
            f"SELECT {', '.join([*self.game.sql, *self.seat.sql, *self.user.sql])} "
            f"FROM {quote(Game._meta.db_table)} g "
            f"LEFT JOIN {quote(SeatRow._meta.db_table)} s ON s.game_id = g.id "
            f"LEFT JOIN {quote(user_model._meta.db_table)} u ON u.id = s.user_id "
            "WHERE g.id = %s"
        )

    @staticmethod
    def game_key(value: Any) -> Any:
        return Game._meta.pk.get_db_prep_value(value, connection)


@lru_cache(maxsize=4)
def _head_statement(vendor: str) -> _HeadStatement:
    return _HeadStatement()


def _compute(current: Head, seats: set[Seat], previous: Head | None) -> None:
    """The updates of ``seats`` at the new head, from one state for all of them."""
    game = current.game
    if game.head_seq == 0 or not seats:
        return
    table = store.state_cache.take(game.id, game.head_seq)
    if table is None and previous is not None:
        table = _caught_up(current, previous)
    if table is None:
        table = store.load_table(game)
    try:
        for seat in seats:
            current.updates[seat] = _update(current, table, seat)
    finally:
        store.state_cache.put(game.id, game.head_seq, table)


def _caught_up(current: Head, previous: Head) -> tables.TableState | None:
    """The state this process held at the previous head, folded with the new events
    (another process wrote them): no reload from the snapshot for each move."""
    if current.after > previous.seq or previous.seq >= current.seq:
        return None
    table = store.state_cache.take(current.game.id, previous.seq)
    if table is None:
        return None
    rules = get_ruleset(current.game.ruleset)
    for row in current.rows:
        if row.seq > previous.seq:
            table = tables.apply(rules, table, store.to_event(row))
    return table


def _update(current: Head, table: tables.TableState, seat: Seat) -> dict[str, Any]:
    return update_of(current.game, current.rows, current.names, table, seat)


def update_of(
    game: Game,
    rows: list[GameEvent],
    names: dict[int, str],
    table: tables.TableState,
    seat: Seat,
) -> dict[str, Any]:
    """One audience's update at ``game``'s head: ``rows`` redacted for ``seat``, its view
    and its legal commands (JSON). The view and the legal commands are encoded at once:
    the state goes back to the cache, where a writer may take and change it, and a view
    may share parts of it."""
    return {
        "events": selectors.redacted_events(game, rows, seat, names),
        "view": encode(selectors.view_of(game, table, seat)),
        "legal": encode(selectors.legal_in(game, table, seat)),
    }


def _update_of(current: Head, seat: Seat) -> dict[str, Any]:
    update = current.updates.get(seat)
    if update is None:
        # An audience the process did not expect (a socket whose seat just changed).
        game = current.game
        if game.head_seq == 0:
            update = {"events": [], "view": "null", "legal": "[]"}
        else:
            with store.reading(game) as table:
                update = _update(current, table, seat)
        current.updates[seat] = update
    return update


def _frame(current: Head, seat: Seat, sent_seq: int, fresh: bool) -> News:
    key = (seat, sent_seq)
    update = _update_of(current, seat)
    if sent_seq >= current.after:
        events = [e for e in update["events"] if e["seq"] > sent_seq]
    else:  # further behind than this head's batch: its own read, up to this head
        rows = read_events(current.game, sent_seq, current.seq)
        events = selectors.redacted_events(current.game, rows, seat, current.names)
    last_seq = events[-1]["seq"] if events else None
    if not events and not fresh:
        return News(seat, None, None)
    frame = None if fresh else current.frames.get(key)
    if frame is None:
        frame = splice(events, current.seq, current.game.status, update, seat)
        if not fresh:
            current.frames[key] = frame
    return News(seat, frame, last_seq)


def splice(events: list[dict], head: int, status: str, update: dict[str, Any], seat: Seat) -> str:
    """A socket's frame, spliced from the parts encoded once per audience (the view and
    the legal commands are JSON already); server_time_ms is for the clocks."""
    return (
        f'{{"type":"events","events":{encode(events)},"head":{head},'
        f'"view":{update["view"]},"status":{encode(status)},'
        f'"legal":{update["legal"]},"your_seat":{encode(seat)},'
        f'"server_time_ms":{clocks.ms_of(timezone.now())}}}'
    )


def answered(frame: str, accepted: dict[str, Any]) -> str:
    """``frame`` carrying the answer to the command this socket sent (games/consumers.py):
    the mover's own update and its ``accepted`` go in one frame, one write."""
    return f'{frame[:-1]},"accepted":{encode(accepted)}}}'
