"""The read path. Game data leaves the server only through these functions:
state through the ruleset's ``view`` and events through ``redact``."""

from __future__ import annotations

import uuid
from collections.abc import Iterable
from typing import Any

from django.contrib.auth.models import AbstractBaseUser
from django.db.models import QuerySet

from games import store
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
    """The rules seat whose secrets ``user`` may see (None: spectator)."""
    if user is None or not user.is_authenticated:
        return None
    seat = game.seats.filter(user=user).only("number").first()
    return seat.number if seat else None


def redact(row: GameEvent, seat: int | None) -> dict[str, Any]:
    """One event as ``seat`` sees it: public merged with that seat's private part."""
    data = dict(row.public)
    if seat is not None:
        data.update(row.private.get(str(seat), {}))
    return {
        "seq": row.seq,
        "type": row.type,
        "data": data,
        "actor": row.actor,
        "recorded_at": row.recorded_at.isoformat(),
    }


def seat_names(game: Game) -> dict[int, str]:
    return {
        s.number: s.display_name for s in game.seats.select_related("user") if s.number is not None
    }


def describe(game: Game, kind: str, data: dict[str, Any], names: dict[int, str]) -> str:
    """The move log line in words, written from the redacted data only."""
    if kind == tables.GAME_STARTED:
        return "The game started."
    if kind == tables.SEAT_RESIGNED:
        return f"{names.get(data.get('seat'), 'A player')} resigned; a bot plays on."
    if kind == tables.GAME_ABORTED:
        return f"A moderator aborted the game. {data.get('reason', '')}".strip()
    if kind == tables.GAME_FINISHED:
        winners = data.get("outcome", {}).get("winners", [])
        return "Game over. Won by " + ", ".join(names.get(w, f"seat {w}") for w in winners)
    rules = get_ruleset(game.ruleset)
    if hasattr(rules, "describe_event"):
        try:
            return rules.describe_event(kind, data, names)
        except Exception:  # the log line is a courtesy; never fail a read for it
            pass
    return kind.replace("_", " ")


def redacted_events(game: Game, rows: Iterable[GameEvent], seat: int | None) -> list[dict]:
    """Events as ``seat`` sees them, each with its line of the move log."""
    names = seat_names(game)
    out = []
    for row in rows:
        event = redact(row, seat)
        event["text"] = describe(game, row.type, event["data"], names)
        out.append(event)
    return out


def events_after(game: Game, seat: int | None, after: int, limit: int = 500) -> list[dict]:
    rows = GameEvent.objects.filter(game=game, seq__gt=after).order_by("seq")[:limit]
    return redacted_events(game, rows, seat)


def game_view(game: Game, seat: int | None) -> dict[str, Any]:
    """The state as ``seat`` sees it at the head, with the seq it belongs to."""
    if game.head_seq == 0:
        return {"seq": 0, "state": None}
    rules = get_ruleset(game.ruleset)
    with store.reading(game) as table:
        return {"seq": game.head_seq, "state": tables.view(rules, table, seat)}


def view_at(game: Game, seat: int | None, seq: int) -> dict[str, Any]:
    """The state as ``seat`` saw it just after event ``seq`` (replays; a full fold)."""
    rules = get_ruleset(game.ruleset)
    seq = max(1, min(seq, game.head_seq))
    table = store.replay(game, upto=seq)
    return {"seq": seq, "state": tables.view(rules, table, seat)}


def legal_commands(game: Game, seat: int | None) -> list[dict[str, Any]]:
    if seat is None or game.status != Game.Status.ACTIVE:
        return []
    rules = get_ruleset(game.ruleset)
    with store.reading(game) as table:
        if table.over or seat in table.resigned or seat not in rules.to_act(table.rules):
            return []
        return rules.legal_commands(table.rules, seat)


def seats_json(game: Game) -> list[dict[str, Any]]:
    seats: QuerySet[Seat] = game.seats.select_related("user").order_by("number", "joined_order")
    return [
        {
            "id": s.pk,
            "seat": s.number,
            "name": s.display_name,
            "user": s.user.username if s.user_id else None,
            "bot": s.bot_level or None,
            "resigned": s.resigned,
        }
        for s in seats
    ]


def table_summary(game: Game) -> dict[str, Any]:
    rules = get_ruleset(game.ruleset)
    return {
        "id": str(game.id),
        "ruleset": game.ruleset,
        "ruleset_name": rules.name,
        "ruleset_version": game.ruleset_version,
        "options": game.options,
        "status": game.status,
        "seats_wanted": game.seats_wanted,
        "seats": seats_json(game),
        "host": game.created_by.username if game.created_by_id else None,
        "head_seq": game.head_seq,
        "seed_commitment": game.seed_commitment,
        "seed": game.revealed_seed,
        "created_at": game.created_at.isoformat(),
        "outcome": game.outcome,
    }


def table_detail(game: Game, user: AbstractBaseUser | None) -> dict[str, Any]:
    seat = viewer_seat(game, user)
    view = game_view(game, seat)
    return {
        **table_summary(game),
        "your_seat": seat,
        "view_seq": view["seq"],
        "view": view["state"],
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
