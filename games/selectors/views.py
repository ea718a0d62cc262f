"""Reading one game: the viewer's seat, the state through the ruleset's ``view``, the
legal commands, and the chain's audit summary."""

from __future__ import annotations

import uuid
from collections.abc import Iterable
from typing import Any

from django.contrib.auth.models import AnonymousUser, User

from games import storage
from games import table as tables
from games.errors import NotFound
from games.models import Game, GameEvent, Seat
from games.rules import get_ruleset
from games.selectors.events import log_name, reveals_all
from games.storage.chain import first_broken_link


def get_game(game_id: uuid.UUID | str) -> Game:
    try:
        return Game.objects.get(pk=game_id)
    except (Game.DoesNotExist, ValueError, TypeError) as exc:
        raise NotFound("not_found", "No such table.") from exc


def viewer_seat(game: Game, user: User | AnonymousUser | None) -> int | None:
    """The rules seat whose secrets ``user`` may see (None: spectator). Every read path
    (REST, the game stream, the audit trail) asks here, after reading ``game``.

    A player who left the table (resigned, expelled or kicked) watches as a spectator
    from then on, their own past secrets included: those (a hand, a terrain card) are
    still the seat's, which a bot now plays against the others."""
    if user is None or not user.is_authenticated:
        return None
    seat = game.seats.filter(user=user).only("number", "resigned", "expelled", "kicked").first()
    return seat.number if seat is not None and not seat.departed else None


def viewer_seat_among(seats: Iterable[Seat], user: User | AnonymousUser | None) -> int | None:
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
        names[seat.number] = log_name(seat)
        if seat.user_id and not seat.departed and seat.user is not None and seat.user.is_active:
            viewers[seat.user_id] = seat.number
    return viewers, names


def game_view(game: Game, seat: int | None) -> dict[str, Any]:
    """The state as ``seat`` sees it at the head, with the seq it belongs to."""
    if game.head_seq == 0:
        return {"seq": 0, "state": None}
    with storage.reading(game) as table:
        return {"seq": game.head_seq, "state": view_of(game, table, seat)}


def view_of(game: Game, table: tables.TableState, seat: int | None) -> dict[str, Any]:
    """``table`` (the state at ``game.head_seq``) as ``seat`` sees it."""
    return tables.view(get_ruleset(game.ruleset), table, seat, reveal=reveals_all(game))


def view_at(game: Game, seat: int | None, seq: int) -> dict[str, Any]:
    """The state as ``seat`` saw it just after event ``seq`` (replays; a full fold)."""
    rules = get_ruleset(game.ruleset)
    seq = max(1, min(seq, game.head_seq))
    table = storage.replay(game, upto=seq)
    return {"seq": seq, "state": tables.view(rules, table, seat, reveal=reveals_all(game))}


def legal_commands(game: Game, seat: int | None) -> list[dict[str, Any]]:
    if seat is None or game.status != Game.Status.ACTIVE:
        return []
    with storage.reading(game) as table:
        return legal_in(game, table, seat)


def seats_to_act(game: Game, table: tables.TableState) -> list[int]:
    """The seats that may act at ``game``'s head (``table``): none once it is over."""
    if game.status != Game.Status.ACTIVE or table.over:
        return []
    rules = get_ruleset(game.ruleset)
    return sorted(s for s in rules.to_act(table.rules) if s not in table.resigned)


def turns_of(user: User) -> dict[str, bool]:
    """Each game in progress ``user`` plays in (id -> whether it is their turn there): the
    lobby's "your turn" marks and the navigation's count when their socket opens."""
    games = Game.objects.filter(status=Game.Status.ACTIVE, seats__user=user).distinct()
    turns = {}
    for game in games:
        seat = viewer_seat(game, user)
        if seat is None:
            continue
        with storage.reading(game) as table:
            turns[str(game.id)] = seat in seats_to_act(game, table)
    return turns


def legal_in(game: Game, table: tables.TableState, seat: int | None) -> list[dict[str, Any]]:
    """The legal commands of ``seat`` in ``table`` (the state at ``game.head_seq``): none
    unless the seat may act now."""
    if seat is None or game.status != Game.Status.ACTIVE:
        return []
    rules = get_ruleset(game.ruleset)
    if table.over or seat in table.resigned or seat not in rules.to_act(table.rules):
        return []
    return rules.legal_commands(table.rules, seat)


def audit_summary(game: Game) -> dict[str, Any]:
    rows = list(GameEvent.objects.filter(game=game).order_by("seq"))
    broken = first_broken_link([storage.record_of(r) for r in rows])
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
