"""The read path. Game data leaves the server only through these functions:
state through the ruleset's ``view`` and events through ``redact``."""
# The audit page reads through audit/trail.py (which redacts through here).

from __future__ import annotations

import threading
import time
import uuid
from collections import OrderedDict
from collections.abc import Iterable
from typing import Any

from django.contrib.auth.models import AbstractBaseUser
from django.db.models import Prefetch, QuerySet
from django.utils import timezone

from games import clocks, store
from games import table as tables
from games.chain import first_broken_link
from games.errors import NotFound
from games.models import Game, GameEvent, Seat
from games.rules import get_ruleset


def get_game(game_id: uuid.UUID | str) -> Game:
    try:
        return Game.objects.get(pk=game_id)
    except (Game.DoesNotExist, ValueError, TypeError) as exc:
        raise NotFound("not_found", "No such table.") from exc


def viewer_seat(game: Game, user: AbstractBaseUser | None) -> int | None:
    """The rules seat whose secrets ``user`` may see (None: spectator). Every read path
    (REST, the game stream, the audit trail) asks here, after reading ``game``.

    A player who left the table (resigned, expelled or kicked) watches as a spectator
    from then on, their own past secrets included: those (a hand, a terrain card) are
    still the seat's, which a bot now plays against the others."""
    if user is None or not user.is_authenticated:
        return None
    seat = game.seats.filter(user=user).only("number", "resigned", "expelled", "kicked").first()
    return seat.number if seat is not None and not seat.departed else None


def viewer_seat_among(seats: Iterable[Seat], user: AbstractBaseUser | None) -> int | None:
    """``viewer_seat`` on seats the caller read with the game (the write path's lock)."""
    if user is None or not user.is_authenticated:
        return None
    seat = next((s for s in seats if s.user_id == user.pk), None)
    return seat.number if seat is not None and not seat.departed else None


def seat_directory(
    game: Game, seats: Iterable[Seat] | None = None
) -> tuple[dict[int, int], dict[int, str]]:
    """One read of a game's seats for the game stream, after reading ``game`` (or the
    ``seats``, with their users, read with it): user id → the seat whose secrets that
    user may see (as ``viewer_seat`` rules, and only while the account is active: a
    banned player's socket stops getting its secrets at once), and the seat names for
    the move log."""
    viewers, names = {}, {}
    for seat in game.seats.select_related("user") if seats is None else seats:
        if seat.number is None:
            continue
        names[seat.number] = seat.display_name
        if seat.user_id and not seat.departed and seat.user.is_active:
            viewers[seat.user_id] = seat.number
    return viewers, names


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
    signature = sorted((s.number or -1, s.user_id, s.bot_level, s.joined_order) for s in seats)
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
        s.number: s.display_name for s in game.seats.select_related("user") if s.number is not None
    }


NAMES_CACHE_SIZE = 2048
NAMES_SECONDS = 60.0
_names_cache: OrderedDict[tuple, tuple[float, dict[int, str]]] = OrderedDict()
_names_lock = threading.Lock()


def describe(game: Game, kind: str, data: dict[str, Any], names: dict[int, str]) -> str:
    """The move log line in words, written from the redacted data only."""
    if kind == tables.GAME_STARTED:
        return "The game started."
    if kind == tables.SEAT_RESIGNED:
        return f"{names.get(data.get('seat'), 'A player')} resigned; a bot plays on."
    if kind == tables.GAME_ABORTED:
        return f"A moderator aborted the game. {data.get('reason', '')}".strip()
    if kind == tables.GAME_FINISHED:
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


def game_view(game: Game, seat: int | None) -> dict[str, Any]:
    """The state as ``seat`` sees it at the head, with the seq it belongs to."""
    if game.head_seq == 0:
        return {"seq": 0, "state": None}
    with store.reading(game) as table:
        return {"seq": game.head_seq, "state": view_of(game, table, seat)}


def view_of(game: Game, table: tables.TableState, seat: int | None) -> dict[str, Any]:
    """``table`` (the state at ``game.head_seq``) as ``seat`` sees it."""
    return tables.view(get_ruleset(game.ruleset), table, seat, reveal=reveals_all(game))


def view_at(game: Game, seat: int | None, seq: int) -> dict[str, Any]:
    """The state as ``seat`` saw it just after event ``seq`` (replays; a full fold)."""
    rules = get_ruleset(game.ruleset)
    seq = max(1, min(seq, game.head_seq))
    table = store.replay(game, upto=seq)
    return {"seq": seq, "state": tables.view(rules, table, seat, reveal=reveals_all(game))}


def legal_commands(game: Game, seat: int | None) -> list[dict[str, Any]]:
    if seat is None or game.status != Game.Status.ACTIVE:
        return []
    with store.reading(game) as table:
        return legal_in(game, table, seat)


def legal_in(game: Game, table: tables.TableState, seat: int | None) -> list[dict[str, Any]]:
    """The legal commands of ``seat`` in ``table`` (the state at ``game.head_seq``): none
    unless the seat may act now."""
    if seat is None or game.status != Game.Status.ACTIVE:
        return []
    rules = get_ruleset(game.ruleset)
    if table.over or seat in table.resigned or seat not in rules.to_act(table.rules):
        return []
    return rules.legal_commands(table.rules, seat)


def table_list(
    user: AbstractBaseUser | None,
    *,
    ruleset: str | None = None,
    status: str | None = None,
    mine: bool = False,
) -> QuerySet[Game]:
    """The lobby's tables (the caller pages and orders them), each with its host, seats
    and seated players read by the same few queries whatever the number of tables."""
    seats = Seat.objects.select_related("user").order_by("number", "joined_order")
    games = Game.objects.select_related("created_by").prefetch_related(
        Prefetch("seats", queryset=seats, to_attr="ordered_seats")
    )
    if ruleset:
        games = games.filter(ruleset=ruleset)
    if status:
        games = games.filter(status=status)
    if mine and user is not None and user.is_authenticated:
        games = games.filter(seats__user=user)
    return games


def _seats_of(game: Game) -> list[Seat]:
    """The game's seats in seat order, from ``table_list``'s prefetch when it ran."""
    prefetched = getattr(game, "ordered_seats", None)
    if prefetched is not None:
        return prefetched
    return list(game.seats.select_related("user").order_by("number", "joined_order"))


def _ratings_of(games: list[Game]) -> dict[tuple[str, int], int]:
    """(ruleset, user id) → the rounded rating of every seated player of ``games``, in
    one query (players who have not played a rated game yet have none)."""
    from players.models import Rating

    people = {s.user_id for g in games for s in _seats_of(g) if s.user_id}
    if not people:
        return {}
    rows = Rating.objects.filter(
        ruleset__in={g.ruleset for g in games}, user_id__in=people, games__gt=0
    )
    return {(r.ruleset, r.user_id): round(r.value) for r in rows}


def seats_json(
    game: Game, ratings: dict[tuple[str, int], int] | None = None
) -> list[dict[str, Any]]:
    seats = _seats_of(game)
    ratings = _ratings_of([game]) if ratings is None else ratings
    return [
        {
            "id": s.pk,
            "seat": s.number,
            "name": s.display_name,
            "user": s.user.username if s.user_id else None,
            "bot": s.bot_level or None,
            "resigned": s.resigned,
            "expelled": s.expelled,
            "kicked": s.kicked,
            "rating": ratings.get((game.ruleset, s.user_id))
            if s.user_id and not s.departed
            else None,
        }
        for s in seats
    ]


def table_summaries(games: Iterable[Game]) -> list[dict[str, Any]]:
    """Many tables' summaries with one ratings query for them all (seats prefetched by
    ``table_list``)."""
    games = list(games)
    ratings = _ratings_of(games)
    return [table_summary(g, ratings) for g in games]


def table_summary(game: Game, ratings: dict[tuple[str, int], int] | None = None) -> dict[str, Any]:
    rules = get_ruleset(game.ruleset)
    return {
        "id": str(game.id),
        "ruleset": game.ruleset,
        "ruleset_name": rules.name,
        "ruleset_version": game.ruleset_version,
        "options": game.options,
        "status": game.status,
        "seats_wanted": game.seats_wanted,
        "seats": seats_json(game, ratings),
        "host": game.created_by.username if game.created_by_id else None,
        "head_seq": game.head_seq,
        "seed_commitment": game.seed_commitment,
        "seed": game.revealed_seed,
        "created_at": game.created_at.isoformat(),
        "outcome": game.outcome,
        "time_control": game.time_control or {"kind": clocks.NONE},
        "seat_range": list(rules.seat_range(game.options)),
        "bot_think_seconds": game.think_seconds,
    }


def table_detail(game: Game, user: AbstractBaseUser | None) -> dict[str, Any]:
    seat = viewer_seat(game, user)
    view = game_view(game, seat)
    from players.models import RatingChange

    changes = RatingChange.objects.filter(game=game).select_related("user").order_by("place")
    return {
        **table_summary(game),
        "your_seat": seat,
        "view_seq": view["seq"],
        "view": view["state"],
        # The clocks in the view hold absolute deadlines (ms since the epoch): compare
        # them with this, not with the browser's own clock.
        "server_time_ms": clocks.ms_of(timezone.now()),
        "rating_changes": [
            {
                "username": c.user.username,
                "place": c.place,
                "before": round(c.before),
                "after": round(c.after),
                "delta": round(c.delta, 1),
            }
            for c in changes
        ],
    }


def audit_summary(game: Game) -> dict[str, Any]:
    rows = list(GameEvent.objects.filter(game=game).order_by("seq"))
    broken = first_broken_link([store.record_of(r) for r in rows])
    return {
        "id": str(game.id),
        "status": game.status,
        "events": len(rows),
        "head_seq": game.head_seq,
        "head_hash": rows[-1].hash if rows else None,
        "chain_intact": broken is None,
        "broken_at": broken[0] if broken else None,
        "seed_commitment": game.seed_commitment,
        "seed": game.revealed_seed,
    }
