"""Events as a reader sees them: redacted (public merged with the reader's private part)
and each with its line of the move log."""

from __future__ import annotations

import threading
import time
from collections import OrderedDict
from collections.abc import Iterable
from typing import Any

from games import table as tables
from games.models import Game, GameEvent, Seat
from games.rules import get_ruleset


def reveals_all(game: Game) -> bool:
    """Once a game is over (finished or aborted) no seat keeps a secret: every reader,
    spectators included, sees every seat's hidden parts, in the view (``revealed``) and
    in each event (``revealed``, by seat). Server-only facts (private "-1") stay here."""
    return game.is_over


def redact(row: GameEvent, seat: int | None, *, reveal: bool = False) -> dict[str, Any]:
    """One event as ``seat`` sees it: public merged with that seat's private part (and,
    with ``reveal``, every seat's private part under ``revealed``)."""
    data = dict(row.public)
    if seat is not None:
        data.update(row.private.get(str(seat), {}))
    event = {
        "seq": row.seq,
        "type": row.type,
        "data": data,
        "actor": row.actor,
        "recorded_at": row.recorded_at.isoformat(),
    }
    if reveal:
        event["revealed"] = {k: v for k, v in row.private.items() if k != "-1"}
    return event


def seat_names(game: Game, seats: Iterable[Seat] | None = None) -> dict[int, str]:
    """The seats' names for the move log. Given the ``seats`` the caller read, they come
    from a short-lived cache keyed by what a name is made of (user, bot level, join
    order): within a game only a seat changes a name, but a moderator may rename an
    account, hence the minute's bound."""
    if seats is None:
        return _read_seat_names(game)
    signature = sorted(
        (s.number or -1, s.user_id, s.bot_level, s.joined_order, s.departed) for s in seats
    )
    key = (game.pk, tuple(signature))
    now = time.monotonic()
    with _names_lock:
        cached = _names_cache.get(key)
    if cached is not None and now - cached[0] < NAMES_SECONDS:
        return cached[1]
    names = _read_seat_names(game)
    with _names_lock:
        _names_cache[key] = (now, names)
        _names_cache.move_to_end(key)
        while len(_names_cache) > NAMES_CACHE_SIZE:
            _names_cache.popitem(last=False)
    return names


def _read_seat_names(game: Game) -> dict[int, str]:
    return {
        s.number: log_name(s) for s in game.seats.select_related("user") if s.number is not None
    }


def log_name(seat: Seat) -> str:
    """A person who left the table keeps their own name in the log, never "(bot)": the
    moves and the departure were theirs (a bot plays the seat on, as the log says)."""
    if seat.user is not None and seat.departed:
        return str(seat.user.username)
    return seat.display_name


NAMES_CACHE_SIZE = 2048
NAMES_SECONDS = 60.0
_names_cache: OrderedDict[tuple, tuple[float, dict[int, str]]] = OrderedDict()
_names_lock = threading.Lock()


def describe(game: Game, kind: str, data: dict[str, Any], names: dict[Any, str]) -> str:
    """The move log line in words, written from the redacted data only."""
    if kind == tables.TABLE_STARTED:
        return "The game started."
    if kind == tables.SEAT_RESIGNED:
        return f"{names.get(data.get('seat'), 'A player')} resigned; a bot plays on."
    if kind == tables.GAME_ABORTED:
        return f"A moderator aborted the game. {data.get('reason', '')}".strip()
    if kind == tables.RESULT_DECLARED:
        return _result_line(data, names) + _departures_note(game, names)
    if kind == tables.CLOCK_PRESSED:
        return ""  # the clocks on the page say it; the move log stays quiet
    if kind in _SERVICE_LINES:
        who = names.get(data.get("seat"), "A player")
        by = names.get(data.get("by"), "another player")
        if "by" in data and data["by"] is None:  # the system, for bot opponents
            by = "The bots"
        return _SERVICE_LINES[kind].format(who=who, by=by, reason=data.get("reason", "")).strip()
    rules = get_ruleset(game.ruleset)
    if hasattr(rules, "describe_event"):
        try:
            return rules.describe_event(kind, data, names)
        except Exception:  # the log line is a courtesy; never fail a read for it
            pass
    return kind.replace("_", " ")


def _result_line(data: dict[str, Any], names: dict[int, str]) -> str:
    """The one line that announces the end: the winner and the final order."""
    outcome = data.get("outcome", {})
    scores = outcome.get("scores", {})
    winners = outcome.get("winners", [])
    joined = " and ".join(names.get(w, f"seat {w}") for w in winners) or "nobody"
    verb = "wins" if len(winners) == 1 else "share the victory"
    if data.get("by"):
        return f"Game over: the others have left the table ({data['by']}), so {joined} {verb}."
    best = scores.get(str(winners[0])) if winners else None
    line = f"Game over: {joined} {verb}" + (f" with {best}" if best is not None else "")
    rest = [
        f"{names.get(s, f'seat {s}')} {scores.get(str(s), '')}".strip()
        for group in outcome.get("ranking", [])[1:]
        for s in group
    ]
    return line + (f"; then {', '.join(rest)}." if rest else ".")


_LEFT_WORDS = {"resigned": "resigned", "expelled": "was expelled", "kicked": "was removed"}


def _departures_note(game: Game, names: dict[int, str]) -> str:
    """When players left, why they rank last: a departed seat played on by a bot may have
    scored more, even completed a Kingdom Cards kingdom."""
    left = {}
    for seat in game.seats.all():
        for flag, words in _LEFT_WORDS.items():
            if seat.number is not None and getattr(seat, flag):
                left[seat.number] = words
    if not left:
        return ""
    who = " and ".join(f"{names.get(s, f'seat {s}')} {words}" for s, words in left.items())
    return (
        f" {who}: a player who leaves ranks last, whatever their seat (played on by a bot) scored."
    )


_SERVICE_LINES = {
    tables.CLOCK_EXPIRED: "{who} ran out of time: the others may skip the turn or expel.",
    tables.TURN_SKIPPED: "{by} skipped {who}'s turn; a bot plays it.",
    tables.SEAT_EXPELLED: "{by} expelled {who}, who was out of time; a bot plays on.",
    tables.SEAT_KICKED: "A moderator removed {who}; a bot plays on. {reason}",
    tables.SEAT_ABSENT: "{who} has not moved for a long time: the others may skip the turn or expel.",
    tables.SEAT_RETURNED: "{who} is back at the table.",
}


def redacted_events(
    game: Game,
    rows: Iterable[GameEvent],
    seat: int | None,
    names: dict[int, str] | None = None,
) -> list[dict]:
    """Events as ``seat`` sees them, each with its line of the move log (``names``: the
    seat names if the caller already read them)."""
    names = seat_names(game) if names is None else names
    reveal = reveals_all(game)
    out = []
    for row in rows:
        event = redact(row, seat, reveal=reveal)
        event["text"] = describe(game, row.type, event["data"], names)
        out.append(event)
    return out


def events_after(game: Game, seat: int | None, after: int, limit: int = 500) -> list[dict]:
    # Up to the head read with ``game``: the seat was decided then, so events a departure
    # committed since (and the bot's secrets after it) are never read as that seat's.
    rows = GameEvent.objects.filter(game=game, seq__gt=after, seq__lte=game.head_seq)
    rows = rows.order_by("seq")[:limit]
    return redacted_events(game, rows, seat)
