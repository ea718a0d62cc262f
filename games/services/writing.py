"""The one write path's core: lock the game row, decide, append, finish, publish after
commit. Every service that changes a game's log ends in ``decide_and_append``."""

from __future__ import annotations

import logging
import uuid
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.contrib.auth.models import AbstractBaseUser
from django.db import IntegrityError, transaction
from django.utils import timezone

from games import clocks, publishing, signals, storage
from games import table as tables
from games.errors import Conflict, Forbidden, ServiceError, from_illegal
from games.models import Game, GameEvent, Seat
from games.publishing import news as audience_news
from games.rules import all_rulesets, get_ruleset
from games.rules.base import IllegalCommand, Ruleset
from games.storage.locking import lock_game

log = logging.getLogger(__name__)
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
    # The row and seats as the write left them (None where a service did not lock them):
    # the API answers from these rather than reading the game again.
    game: Game | None = None
    seats: list[Seat] | None = None
    # Each audience's update that the write published with its head
    # (games/publishing/news.py), if anything.
    news: dict[str, Any] | None = None


def ruleset_named(key: str) -> Ruleset:
    if key not in {r.key for r in all_rulesets()}:
        raise ServiceError("unknown_ruleset", f"There is no game called {key!r}.")
    return get_ruleset(key)


def locked(game_id: uuid.UUID | str) -> Game:
    return lock_game(game_id)


def after_commit(
    game: Game,
    *,
    lobby: bool = False,
    bots: bool = False,
    bot_turns: list[tuple[int, str]] | None = None,
    news: dict[str, Any] | None = None,
) -> None:
    """Publish the new head after commit (with ``news``: each audience's update,
    games/publishing/news.py); ``bots``: have the bot turns found and scheduled then
    (queries); ``bot_turns``: have these (seat, level), found under the lock, scheduled
    (both through ``signals.bot_turns_due``, which the bots app serves)."""
    game_id, head = game.id, game.head_seq

    def notify() -> None:
        steps = [lambda: publishing.game_advanced(game_id, head, news)]
        if lobby:
            steps.append(lambda: publishing.lobby_changed(game_id))
        if bots:
            steps.append(lambda: _bot_turns_due(game, head, None))
        if bot_turns:
            steps.append(lambda: _bot_turns_due(game, head, bot_turns))
        # The move is committed, so its answer stands whatever fails here (Redis down, a
        # broker refusing the bot task): each step is logged and the others still run.
        # What is lost is made good later: clients catch up by seq, and the bot turns owed
        # are sent again from the database (bots/outbox.py).
        for step in steps:
            try:
                step()
            except Exception:
                log.exception("game %s at seq %s: a step after commit failed", game_id, head)

    if bots or bot_turns:
        # In the transaction: the turns owed are recorded with the events that made them
        # due (the bots app's outbox), so no lost message or process can stall the game.
        signals.bot_turns_owed.send(sender=Game, game=game, head_seq=head)
    transaction.on_commit(notify)


def _bot_turns_due(game: Game, head: int, bot_turns: list[tuple[int, str]] | None) -> None:
    answers = signals.bot_turns_due.send_robust(
        sender=Game, game=game, head_seq=head, bot_turns=bot_turns
    )
    for receiver, answer in answers:
        if isinstance(answer, Exception):
            log.error(
                "game %s at seq %s: %r failed after commit",
                game.id,
                head,
                receiver,
                exc_info=answer,
            )


def require_active(game: Game) -> None:
    if game.status != Game.Status.ACTIVE:
        raise Conflict("game_not_active", "This game is not in progress.")


def seat_of(
    game: Game, user: AbstractBaseUser | None, seats: list[Seat] | None = None
) -> Seat | None:
    """The user's seat at ``game``; from ``seats`` when the caller already read them."""
    if user is None or not user.is_authenticated:
        return None
    if seats is not None:
        return next((s for s in seats if s.user_id == user.pk), None)
    return game.seats.filter(user=user).select_related("user").first()


def playing_seat(
    game: Game, user: AbstractBaseUser | None, seats: list[Seat] | None = None
) -> Seat:
    """The user's own seat, still played by them (not left, not taken over), whose account
    is active as the database has it now (the seats are read under the game's lock: an
    account deactivated after the request authenticated, or after its socket opened, is
    refused here)."""
    seat = seat_of(game, user, seats)
    if seat is None or seat.number is None:
        raise Forbidden("not_seated", "You have no seat at this table.")
    if not seat.user.is_active:
        raise Forbidden("account_inactive", "This account is deactivated.")
    if seat.resigned:
        raise Forbidden("resigned", "You resigned from this game.")
    if seat.departed:
        raise Forbidden("seat_departed", "You were removed from this game; a bot plays on.")
    return seat


def decide_and_append(
    game: Game,
    actor: storage.Actor,
    seat: int | None,
    command: dict[str, Any],
    command_id: uuid.UUID,
    *,
    now: datetime | None = None,
    seats: list[Seat] | None = None,
    head_hash: str | None = None,
) -> Submitted:
    """Decide ``command`` at the head and append its events. The caller holds the lock.

    ``seats`` and ``head_hash`` are what ``lock_for_command`` read with the lock (read
    here when not given). The game's row changes in one UPDATE (head, and the clock deadline or the
    result only when they change); bot turns are scheduled only for bot seats to act,
    found from the state and the seats. After commit the state goes back to the cache at
    the new head and each audience's update is published.
    """
    rules = get_ruleset(game.ruleset)
    table = storage.load_table(game)
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
        storage.state_cache.put(game.id, game.head_seq, table)
        raise from_illegal(exc) from exc
    changes = _row_changes(game, table, now)
    try:
        rows = storage.append(
            game,
            events,
            actor=actor,
            command=command,
            command_id=command_id,
            table_after=table,
            now=now,
            row_changes=changes,
            prev_hash=head_hash,
        )
    except IntegrityError as exc:  # a racing duplicate command_id on SQLite
        raise Conflict("duplicate_command", "This command was already recorded.") from exc
    if seats is None:
        seats = list(game.seats.select_related("user"))
    record_departures(game, events, seats)
    if game.status == Game.Status.FINISHED:
        # Inside the transaction: the ratings are recorded with the finishing event.
        signals.game_finished.send(sender=Game, game=game, table=table)
    levels = {s.number: s.bot_level for s in seats if s.bot_level and s.number is not None}
    bot_turns = tables.bots_to_act(rules, table, levels, TAKEOVER_LEVEL)
    # Before the state goes to the cache at commit (where another writer may take it).
    news = audience_news.for_head(game, seats, rows, table) if rows else None
    head = game.head_seq
    transaction.on_commit(lambda: storage.state_cache.put(game.id, head, table))
    after_commit(game, lobby=table.over, bot_turns=bot_turns, news=news)
    return Submitted(events=rows, head_seq=head, game=game, seats=seats, news=news)


def _row_changes(game: Game, table: tables.TableState, now: datetime) -> dict[str, Any]:
    """The game row's fields this command changes besides the head (set on ``game`` too):
    the clock deadline when it moves, the result when the game ends."""
    changes: dict[str, Any] = {}
    deadline = clock_deadline_of(table)
    if deadline != game.clock_deadline:
        changes["clock_deadline"] = deadline
    if table.over:
        changes["status"] = Game.Status.ABORTED if table.aborted else Game.Status.FINISHED
        changes["finished_at"] = now
        changes["outcome"] = table.outcome.as_json() if table.outcome else None
    for field, value in changes.items():
        setattr(game, field, value)
    return changes


def record_departures(game: Game, events: list[Any], seats: list[Seat]) -> bool:
    """A seat whose player left is played by a medium bot from now on (zombie takeover).
    True if a seat changed."""
    changed = False
    for event in events:
        flag = _DEPARTURE_FLAGS.get(event.type)
        if flag is None:
            continue
        changed = True
        seat = next(s for s in seats if s.number == event.public["seat"])
        setattr(seat, flag, True)
        seat.bot_level = seat.bot_level or TAKEOVER_LEVEL
        seat.save(update_fields=[flag, "bot_level"])
    return changed


def clock_deadline_of(table: tables.TableState) -> datetime | None:
    """When the first running clock runs out (None: no clock runs, or the game is over)."""
    if table.clock is None or table.over:
        return None
    next_ms = table.clock.next_deadline()
    return clocks.moment_of(next_ms) if next_ms is not None else None


def keep_clock_deadline(game: Game, table: tables.TableState) -> None:
    deadline = clock_deadline_of(table)
    if deadline != game.clock_deadline:
        game.clock_deadline = deadline
        Game.objects.filter(pk=game.pk).update(clock_deadline=deadline)


def replayed(
    game: Game,
    first: GameEvent,
    command: dict[str, Any],
    actor: str | None,
    seats: list[Seat] | None = None,
) -> Submitted:
    """An idempotent retry: answer with what the first delivery recorded.

    Only the actor who recorded the id may retry it: anyone else gets ``command_id_taken``,
    never that actor's events (a bot whose id is taken plays on under a fresh one)."""
    if first.actor != actor:
        raise Conflict(
            "command_id_taken",
            "Another player recorded this command_id; send your command with a new one.",
        )
    if first.command != command:
        raise Conflict("command_id_reused", "This command_id was used for another command.")
    batch = [first]
    for row in GameEvent.objects.filter(game=game, seq__gt=first.seq).order_by("seq"):
        if row.command_id is not None:
            break
        batch.append(row)
    return Submitted(events=batch, head_seq=game.head_seq, replayed=True, game=game, seats=seats)
