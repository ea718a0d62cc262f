"""The frames a write pushes with its new head (ARCHITECTURE: publish each event,
redacted per audience): the writer holds the state, the seats and the new events under
the game's lock, so it computes each seated player's update once, for every process, and
the group message carries them. A player's socket then only picks its seat's update and
splices its frame: no read, no thread, no state in the processes that merely watch.

A spectator's socket, a socket that missed a message (it has sent less than the batch
starts after), or a head published without updates (the lobby's and moderation's
writes) takes the read path instead (games/fanout.py ``news``), so a lost
or partial message still costs latency only.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from typing import Any

from games import selectors
from games import table as tables
from games.fanout import News, Seat, splice, update_of
from games.models import Game, GameEvent
from games.models import Seat as SeatRow

# Frames spliced lately, shared by the sockets of one audience in a process (a player
# with the table open in several tabs costs one splice per head).
FRAMES_KEPT = 1024
_frames: OrderedDict[tuple, str] = OrderedDict()
_frames_lock = threading.Lock()


def audience_key(seat: Seat) -> str:
    # Keys are strings: a message crosses the channel layer as msgpack.
    return "-" if seat is None else str(seat)


def for_head(
    game: Game,
    seats: list[SeatRow],
    rows: list[GameEvent],
    table: tables.TableState,
) -> dict[str, Any]:
    """What a write publishes with its head: the seats' viewers (as the game stream's
    read rules them, ``selectors.seat_directory``) and the update of each seat a player
    sees. Spectators are left to the read path: most games have none, and a process
    that has some computes their update once for all of them. ``seats`` carry their
    users; ``rows`` are the events this write appended, ``table`` the state after them."""
    viewers, names = selectors.seat_directory(game, seats)
    audiences: set[Seat] = set(viewers.values())
    return {
        "after": rows[0].seq - 1,
        "status": game.status,
        "viewers": [[user_id, seat] for user_id, seat in viewers.items()],
        "updates": {
            audience_key(seat): update_of(game, rows, names, table, seat) for seat in audiences
        },
    }


def events_for(pushed: dict[str, Any] | None, seat: Seat) -> list[dict[str, Any]] | None:
    """The write's events as ``seat``'s player sees them, as the write computed them for
    that player's socket; None: not computed (no player sits there, nothing pushed)."""
    if pushed is None or seat is None:
        return None
    update = pushed["updates"].get(audience_key(seat))
    return None if update is None else update["events"]


def news_of(
    game_id: Any, pushed: dict[str, Any], head: int, user_id: int | None, sent_seq: int
) -> News | None:
    """The frame for a socket of ``user_id`` that has sent events up to ``sent_seq``, from
    a head's pushed updates; None: this socket takes the read path."""
    if sent_seq < pushed["after"]:
        return None
    viewers = {user: seat for user, seat in pushed["viewers"]}
    seat = viewers.get(user_id) if user_id is not None else None
    audience = audience_key(seat)
    update = pushed["updates"].get(audience)
    if update is None:
        return None
    events = [event for event in update["events"] if event["seq"] > sent_seq]
    if not events:
        return News(seat, None, None)
    key = (str(game_id), head, audience, sent_seq)
    with _frames_lock:
        frame = _frames.get(key)
    if frame is None:
        frame = splice(events, head, pushed["status"], update, seat)
        with _frames_lock:
            _frames[key] = frame
            while len(_frames) > FRAMES_KEPT:
                _frames.popitem(last=False)
    return News(seat, frame, events[-1]["seq"])
