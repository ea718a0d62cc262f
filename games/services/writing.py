"""The one write path's core: lock the game row, decide, append, finish, publish after
commit. Every service that changes a game's log ends in ``decide_and_append``."""

from __future__ import annotations

import uuid
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.contrib.auth.models import AbstractBaseUser
from django.db import IntegrityError, transaction
from django.utils import timezone

from games import clocks, publish, store
from games import table as tables
from games.errors import Conflict, NotFound, ServiceError, from_illegal
from games.models import Game, GameEvent, Seat
from games.rules import all_rulesets, get_ruleset
from games.rules.base import IllegalCommand, Ruleset

BOT_LEVELS = ("easy", "medium", "hard")
# The level of the bot that takes over a seat whose player left (resigned, was expelled
# or kicked) and that plays a skipped turn.
TAKEOVER_LEVEL = "medium"
# What a table may set as a search bot's thinking time per move (seconds): below 0.1 the
# search is no better than the medium bot; above 10 a game with bots drags.
BOT_THINK_SECONDS_RANGE = (0.1, 10.0)
_DEPARTURE_FLAGS = {
    tables.SEAT_RESIGNED: "resigned",
    tables.SEAT_EXPELLED: "expelled",
    tables.SEAT_KICKED: "kicked",
}


@dataclass(frozen=True)
class Submitted:
    events: list[GameEvent]
    head_seq: int
    replayed: bool = False


def ruleset_named(key: str) -> Ruleset:
    if key not in {r.key for r in all_rulesets()}:
        raise ServiceError("unknown_ruleset", f"There is no game called {key!r}.")
    return get_ruleset(key)


def locked(game_id: uuid.UUID | str) -> Game:
    try:
        return Game.objects.select_for_update().get(pk=game_id)
    except (Game.DoesNotExist, ValueError, TypeError) as exc:
        raise NotFound("not_found", "No such table.") from exc


def after_commit(game: Game, *, lobby: bool = False, bots: bool = False) -> None:
    game_id, head, timed = game.id, game.head_seq, game.clock_deadline is not None

    def notify() -> None:
        publish.game_advanced(game_id, head)
        if lobby:
            publish.lobby_changed(game_id)
        if bots:
            from bots.dispatch import schedule_bot_turns

            schedule_bot_turns(game_id)
        if timed:
            from bots.dispatch import ensure_clock_sweeper

            ensure_clock_sweeper()

    transaction.on_commit(notify)


def require_active(game: Game) -> None:
    if game.status != Game.Status.ACTIVE:
        raise Conflict("game_not_active", "This game is not in progress.")


def seat_of(game: Game, user: AbstractBaseUser | None) -> Seat | None:
    if user is None or not user.is_authenticated:
        return None
    return game.seats.filter(user=user).first()


def playing_seat(game: Game, user: AbstractBaseUser | None) -> Seat:
    """The user's own seat, still played by them (not left, not taken over)."""
    from games.errors import Forbidden

    seat = seat_of(game, user)
    if seat is None or seat.number is None:
        raise Forbidden("not_seated", "You have no seat at this table.")
    if seat.resigned:
        raise Forbidden("resigned", "You resigned from this game.")
    if seat.departed:
        raise Forbidden("seat_departed", "You were removed from this game; a bot plays on.")
    return seat


def decide_and_append(
    game: Game,
    actor: store.Actor,
    seat: int | None,
    command: dict[str, Any],
    command_id: uuid.UUID,
    *,
    now: datetime | None = None,
) -> Submitted:
    """Decide ``command`` at the head and append its events. The caller holds the lock."""
    rules = get_ruleset(game.ruleset)
    table = store.load_table(game)
    now = now or timezone.now()
    try:
        events = tables.command_events(
            rules,
            table,
            game.seed,
            game.head_seq,
            seat,
            command,
            actor_kind=actor.label.partition(":")[0],
            now_ms=clocks.ms_of(now),
        )
    except IllegalCommand as exc:
        # decide raised, so the state is untouched: keep it cached for the next command.
        store.state_cache.put(game.id, game.head_seq, table)
        raise from_illegal(exc) from exc
    try:
        rows = store.append(
            game,
            events,
            actor=actor,
            command=command,
            command_id=command_id,
            table_after=table,
            now=now,
        )
    except IntegrityError as exc:  # a racing duplicate command_id on SQLite
        raise Conflict("duplicate_command", "This command was already recorded.") from exc
    record_departures(game, events)
    keep_clock_deadline(game, table)
    if table.over:
        game.status = Game.Status.ABORTED if table.aborted else Game.Status.FINISHED
        game.finished_at = now
        game.outcome = table.outcome.as_json() if table.outcome else None
        game.save(update_fields=["status", "finished_at", "outcome"])
        if game.status == Game.Status.FINISHED:
            from players import ratings

            ratings.record_result(game, table)
    after_commit(game, lobby=table.over, bots=not table.over)
    return Submitted(events=rows, head_seq=game.head_seq)


def record_departures(game: Game, events: list[Any]) -> None:
    """A seat whose player left is played by a medium bot from now on (zombie takeover)."""
    for event in events:
        flag = _DEPARTURE_FLAGS.get(event.type)
        if flag is None:
            continue
        seat = Seat.objects.get(game=game, number=event.public["seat"])
        setattr(seat, flag, True)
        seat.bot_level = seat.bot_level or TAKEOVER_LEVEL
        seat.save(update_fields=[flag, "bot_level"])


def keep_clock_deadline(game: Game, table: tables.TableState) -> None:
    deadline = None
    if table.clock is not None and not table.over:
        next_ms = table.clock.next_deadline()
        deadline = clocks.moment_of(next_ms) if next_ms is not None else None
    if deadline != game.clock_deadline:
        game.clock_deadline = deadline
        Game.objects.filter(pk=game.pk).update(clock_deadline=deadline)


def replayed(game: Game, first: GameEvent, command: dict[str, Any]) -> Submitted:
    """An idempotent retry: answer with what the first delivery recorded."""
    if first.command != command:
        raise Conflict("command_id_reused", "This command_id was used for another command.")
    batch = [first]
    for row in GameEvent.objects.filter(game=game, seq__gt=first.seq).order_by("seq"):
        if row.command_id is not None:
            break
        batch.append(row)
    return Submitted(events=batch, head_seq=game.head_seq, replayed=True)
