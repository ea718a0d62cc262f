"""Each audience's update at a new head, and the socket frames made from it.

An audience is a seat whose player sees its secrets, or the spectators (``None``). Its
update is the new events redacted for it (``selectors.redacted_events``), its view
(``selectors.view_of``) and, for a seat that may act, its legal commands: everything
leaves through the one read path. The writer holds the state, the seats and the new
events under the game's lock, so it computes every audience's update once
(``for_head``) and the group message carries them to every process; a socket picks its
audience's part (``frame_from``). A socket that opens, asks to resync, or missed a
message reads the events after its own last seq instead (``read_frame``).
"""

from __future__ import annotations

from typing import Any

from django.utils import timezone

from games import clocks, selectors, storage
from games import table as tables
from games.json_output import encode
from games.models import Game, GameEvent, Seat

# At most this many events in one frame: a client further behind asks again by seq.
MAX_EVENTS = 1000
Audience = int | None  # a seat number, or None for the spectators


def audience_key(seat: Audience) -> str:
    # Keys are strings: a message crosses the channel layer as msgpack.
    return "-" if seat is None else str(seat)


def update_of(
    game: Game,
    rows: list[GameEvent],
    names: dict[int, str],
    table: tables.TableState,
    seat: Audience,
) -> dict[str, Any]:
    """One audience's update at ``game``'s head: ``rows`` redacted for ``seat``, its view
    and its legal commands. The view and the legal commands are encoded at once: the
    state goes back to the cache, where a writer may take and change it."""
    return {
        "events": selectors.redacted_events(game, rows, seat, names),
        "view": encode(selectors.view_of(game, table, seat)),
        "legal": encode(selectors.legal_in(game, table, seat)),
    }


def for_head(
    game: Game, seats: list[Seat], rows: list[GameEvent], table: tables.TableState
) -> dict[str, Any]:
    """What a write publishes with its head: who sees which seat's secrets (as
    ``selectors.seat_directory`` rules), the update of every audience and the frame a
    socket of that audience sends, made once here (``frames``, with the seq of its last
    event in ``last``). ``seats`` carry their users; ``rows`` are the events this write
    appended, ``table`` the state after them. The channel layer carries only what the
    sockets use (``published``)."""
    viewers, names = selectors.seat_directory(game, seats)
    audiences: set[Audience] = {None, *viewers.values()}
    updates = {seat: update_of(game, rows, names, table, seat) for seat in audiences}
    return {
        "after": rows[0].seq - 1,
        "status": game.status,
        "viewers": [[user_id, seat] for user_id, seat in viewers.items()],
        "updates": {audience_key(seat): update for seat, update in updates.items()},
        "frames": {
            audience_key(seat): splice(update["events"], game.head_seq, game.status, update, seat)
            for seat, update in updates.items()
        },
        "last": rows[-1].seq,
        # The seats to act at this head: the lobby marks its players' "your turn".
        "to_act": selectors.seats_to_act(game, table),
    }


def published(news: dict[str, Any]) -> dict[str, Any]:
    """The part of ``news`` the sockets use: each audience's frame, made once by the
    writer, so a socket decodes strings from the channel layer, not every audience's
    events."""
    return {key: news[key] for key in ("after", "status", "viewers", "frames", "last", "to_act")}


def seat_in(news: dict[str, Any], user_id: int | None) -> Audience:
    """The seat whose secrets ``user_id`` sees at this head (None: a spectator)."""
    if user_id is None:
        return None
    return next((seat for user, seat in news["viewers"] if user == user_id), None)


def frame_from(
    news: dict[str, Any], head: int, user_id: int | None, sent_seq: int
) -> tuple[Audience, str | None, int | None] | None:
    """A socket's frame from a head's published ``news``: (seat, frame, last seq sent);
    the frame is None when nothing is new. None: this socket must read instead (it has
    not sent exactly the events up to where the news starts)."""
    seat = seat_in(news, user_id)
    if sent_seq >= news["last"]:
        return seat, None, None
    frame = news["frames"].get(audience_key(seat))
    if sent_seq != news["after"] or frame is None:
        return None
    return seat, frame, news["last"]


def read_frame(
    game_id: Any, user_id: int | None, sent_seq: int, *, fresh: bool
) -> tuple[Audience, str | None, int | None]:
    """A socket's frame read from the database: the events after ``sent_seq`` (the last
    ``MAX_EVENTS`` at most) and the view at the head, for the seat ``user_id`` sees. ``fresh``
    (connect, resync): the frame goes even without new events."""
    game = selectors.get_game(game_id)
    seats = list(game.seats.select_related("user"))
    viewers, names = selectors.seat_directory(game, seats)
    seat = viewers.get(user_id) if user_id is not None else None
    # A client further behind than MAX_EVENTS reads the older events over REST.
    after = max(0, min(sent_seq, game.head_seq), game.head_seq - MAX_EVENTS)
    rows = storage.events_between(game, after, game.head_seq, limit=MAX_EVENTS)
    if not rows and not fresh:
        return seat, None, None
    if game.head_seq == 0:
        update: dict[str, Any] = {"events": [], "view": "null", "legal": "[]"}
    else:
        with storage.reading(game) as table:
            update = update_of(game, rows, names, table, seat)
    events = update["events"]
    last_seq = events[-1]["seq"] if events else None
    return seat, splice(events, game.head_seq, game.status, update, seat), last_seq


def splice(
    events: list[dict], head: int, status: str, update: dict[str, Any], seat: Audience
) -> str:
    """A socket's frame, spliced from the parts encoded once per audience (the view and
    the legal commands are JSON already); server_time_ms is for the clocks."""
    return (
        f'{{"type":"events","events":{encode(events)},"head":{head},'
        f'"view":{update["view"]},"status":{encode(status)},'
        f'"legal":{update["legal"]},"your_seat":{encode(seat)},'
        f'"server_time_ms":{clocks.ms_of(timezone.now())}}}'
    )


def answered(frame: str, accepted: dict[str, Any]) -> str:
    """``frame`` carrying the answer to the command this socket sent: the mover's own
    update and its ``accepted`` go in one frame."""
    return f'{frame[:-1]},"accepted":{encode(accepted)}}}'
