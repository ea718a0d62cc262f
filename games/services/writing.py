"""The one write path's core: decide on the game's head as this process holds it, record
with one conditional statement, publish after. Every service that changes a game's log
ends in ``command_record``.

The concurrency rule is optimistic, as event stores' is: a command is decided on the head
held here (games/storage/state.py) and recorded on the condition that the game's row is
still at that head (games/storage/recorder.py). When another writer was first, the write
fails whole; the writer loads the head again and decides again, a few times at most. A
refusal is answered only on the head the database has: a refusal on a held head that is
behind is decided again on the new one.
"""

from __future__ import annotations

import logging
import uuid
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.contrib.auth.models import User
from django.db import transaction
from django.utils import timezone

from games import clocks, publishing, signals, storage
from games import table as tables
from games.errors import Conflict, Forbidden, NotFound, ServiceError, from_illegal
from games.models import Game, GameEvent, Seat
from games.publishing import news as audience_news
from games.rules import all_rulesets, get_ruleset
from games.rules.base import IllegalCommand, Ruleset
from games.storage import recorder

log = logging.getLogger(__name__)
BOT_LEVELS = ("easy", "medium", "hard", "expert")
# The level of the bot that takes over a seat whose player left (resigned, was expelled
# or kicked) and that plays a skipped turn.
TAKEOVER_LEVEL = "medium"
# What a table may set as a search bot's thinking time per move (seconds): below 0.1 the
# search is no better than the medium bot; above 10 a game with bots drags.
BOT_THINK_SECONDS_RANGE = (0.1, 10.0)
# Decisions a write makes before it gives up to writers that keep coming first.
RETRIES = 5
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
    # The row and seats as the write left them: the API answers from these rather than
    # reading the game again.
    game: Game | None = None
    seats: list[Seat] | None = None
    # Each audience's update that the write published with its head
    # (games/publishing/news.py), if anything.
    news: dict[str, Any] | None = None
    # The channel layer's messages of this write: sent after commit by the write path,
    # or, for a write made with ``publish=False``, by its caller.
    notices: tuple[publishing.Notice, ...] = ()


@dataclass(frozen=True)
class Intent:
    """A command to record at a head: who sends it (``actor``), for which seat, and the
    account that must still be active when it is recorded (a person's move)."""

    actor: storage.Actor
    seat: int | None
    command: dict[str, Any]
    account_id: int | None = None


@dataclass(frozen=True)
class Retry:
    """A client's command under its own ``command_id``: if that id is already recorded,
    the answer is the recorded one, for the same actor and command only."""

    command: Any
    actor: Callable[[storage.Head], str | None]


# What a service wants recorded at a head (None: nothing to record there). It may refuse
# (raise a ServiceError): the refusal stands once it is made on the database's head.
Choose = Callable[[storage.Head], Intent | None]


def ruleset_named(key: str) -> Ruleset:
    if key not in {r.key for r in all_rulesets()}:
        raise ServiceError("unknown_ruleset", f"There is no game called {key!r}.")
    return get_ruleset(key)


def command_record(
    game_id: uuid.UUID | str,
    choose: Choose,
    *,
    command_id: uuid.UUID | None = None,
    expected_seq: int | None = None,
    retry: Retry | None = None,
    now: datetime | None = None,
    publish: bool = True,
) -> Submitted | None:
    """Record what ``choose`` wants at the game's head; None when it wants nothing.

    ``command_id`` (a client's): a command already recorded under it answers with the
    recorded events (``replayed``) to ``retry``'s actor, and is never recorded twice.
    ``expected_seq``: a head other than it answers 409 ``stale_seq``. ``publish``: False
    leaves sending ``notices`` to the caller (a socket, on its own event loop)."""
    game_id = _game_id(game_id)
    head, fresh = _held_or_loaded(game_id, expected_seq)
    for _ in range(RETRIES):
        try:
            if expected_seq is not None and expected_seq != head.seq:
                if expected_seq > head.seq and not fresh:
                    head, fresh = _caught_up(head), True  # held behind: catch up first
                    continue
                raise _stale(expected_seq, head.seq)
            intent = choose(head)
            if intent is None:
                if not fresh and _head_moved(head):  # "nothing to do" only at the head
                    head, fresh = _caught_up(head), True
                    continue
                storage.heads.put(head)
                return None
            return _decide_and_record(head, intent, command_id or uuid.uuid4(), now, publish)
        except recorder.HeadMoved:
            # Decided on a head the database no longer has (the state is spent).
            head, fresh = _loaded(game_id), True
        except recorder.CommandRecorded as exc:
            return _replayed(game_id, exc.seq, retry)
        except ServiceError:
            # The state is untouched: a refusal (decide raised before any fold).
            if not fresh and _head_moved(head):
                head, fresh = _caught_up(head), True
                continue
            storage.heads.put(head)
            if command_id is not None and retry is not None:
                seq = recorder.recorded_seq(game_id, command_id)
                if seq is not None:
                    return _replayed(game_id, seq, retry)
            raise
    raise Conflict("busy_game", "Other moves keep coming first; try again.")


def _game_id(game_id: uuid.UUID | str) -> uuid.UUID:
    if isinstance(game_id, uuid.UUID):
        return game_id
    try:
        return uuid.UUID(str(game_id))
    except ValueError as exc:
        raise NotFound("not_found", "No such table.") from exc


def _held_or_loaded(game_id: uuid.UUID, expected_seq: int | None) -> tuple[storage.Head, bool]:
    """The head held here (not fresh: the database may be past it), else loaded."""
    held = storage.heads.take(game_id)
    if held is None:
        return _loaded(game_id), True
    return storage.with_seats(held), False


def _loaded(game_id: uuid.UUID) -> storage.Head:
    """The head as the database has it now, with its seats read again."""
    game = Game.objects.filter(pk=game_id).first()
    if game is None:
        raise NotFound("not_found", "No such table.")
    head = storage.head_at(game)
    head.seats = None
    return storage.with_seats(head)


def _caught_up(head: storage.Head) -> storage.Head:
    """``head`` (unspent: nothing was folded into it) brought to the database's head."""
    storage.heads.put(head)
    return _loaded(head.game.id)


def _head_moved(head: storage.Head) -> bool:
    now = recorder.head_of(head.game.id)
    return now is None or now != (head.seq, head.game.status)


def _stale(expected_seq: int, head_seq: int) -> Conflict:
    return Conflict(
        "stale_seq",
        f"The game has moved on (head is {head_seq}); refresh and try again."
        if expected_seq < head_seq
        else f"expected_seq {expected_seq} is ahead of the game (head is {head_seq}): "
        "send the head's seq.",
        head=head_seq,
    )


def _decide_and_record(
    head: storage.Head,
    intent: Intent,
    command_id: uuid.UUID,
    now: datetime | None,
    publish: bool,
) -> Submitted:
    game, table, seats = head.game, head.table, head.seats or []
    rules = get_ruleset(game.ruleset)
    now = now or timezone.now()
    after, status = head.seq, game.status
    try:
        events = tables.command_events(
            rules,
            table,
            game.seed,
            after,
            intent.seat,
            intent.command,
            actor_kind=intent.actor.label.partition(":")[0],
            now_ms=clocks.ms_of(now),
        )
    except IllegalCommand as exc:
        raise from_illegal(exc) from exc  # decide raised: the state is untouched
    # From here the state is the one after the events: if the write fails it is dropped.
    rows = storage.new_rows(
        game,
        events,
        after=after,
        prev_hash=head.hash,
        actor=intent.actor,
        command=intent.command,
        command_id=command_id,
        now=now,
    )
    levels = {s.number: s.bot_level for s in seats if s.bot_level and s.number is not None}
    bot_turns = tables.bots_to_act(rules, table, levels, TAKEOVER_LEVEL)
    changes = _row_changes(game, table, now, rows[-1].seq, bool(bot_turns))
    condition = recorder.Condition(after, status, intent.account_id)
    checkpoint = storage.checkpoint_after(game, after, rows, table)
    records = [storage.event_record(row) for row in rows]
    departing = any(event.type in _DEPARTURE_FLAGS for event in events)
    finished = changes.get("status") == Game.Status.FINISHED
    if departing or finished:
        # More than the log changes (a seat's player, the ratings): one transaction.
        with transaction.atomic():
            inactive = recorder.record(game.id, condition, records, changes, checkpoint)
            _apply(game, changes)
            if departing:
                bot_turns = _departures_recorded(rules, table, events, seats)
            if finished:
                signals.game_finished.send(sender=Game, game=game, table=table)
    else:
        inactive = recorder.record(game.id, condition, records, changes, checkpoint)
        _apply(game, changes)
    for seat in seats:  # who sees a seat's secrets at this head: active accounts only
        if seat.user is not None:  # no query for a bot's seat: its user_id is None
            seat.user.is_active = seat.user_id not in inactive
    # Before the head goes back to the cache (where another writer may take it).
    news = audience_news.for_head(game, seats, rows, table)
    # Held for the next write once committed (at once in autocommit): a head another
    # thread took before the commit would be one the database does not have yet.
    recorded = storage.Head(game, table, rows[-1].hash, seats)
    transaction.on_commit(lambda: storage.heads.put(recorded))
    wire = audience_news.published(news) if news is not None else None
    notices = [publishing.game_advanced(game.id, game.head_seq, wire)]
    if table.over:
        notices.append(publishing.lobby_changed(game.id))
    submitted = Submitted(
        events=rows,
        head_seq=game.head_seq,
        game=game,
        seats=seats,
        news=news,
        notices=tuple(notices),
    )
    after_commit(
        game,
        submitted.notices if publish else (),
        bot_turns=bot_turns,
        turn_users=people_now_to_act(rules, game, table, seats, intent.seat),
    )
    return submitted


def people_now_to_act(
    rules: Ruleset, game: Game, table: tables.TableState, seats: list[Seat], mover: int | None
) -> list[int]:
    """The accounts to mail "your turn" at a turn-based table: people (not bots, not
    departed) to act at this head, the mover aside (still at the table; None at the
    start)."""
    if (game.time_control or {}).get("kind") != clocks.TURN or table.over:
        return []
    acting = tables.to_act(rules, table) - {mover}
    return [
        s.user_id
        for s in seats
        if s.number in acting and s.user_id is not None and not s.is_bot and not s.departed
    ]


def _apply(game: Game, changes: dict[str, Any]) -> None:
    for field, value in changes.items():
        setattr(game, field, value)


def _departures_recorded(
    rules: Ruleset, table: tables.TableState, events: list[Any], seats: list[Seat]
) -> list[tuple[int, str]]:
    """Record on the seats the players who left; the bot turns to act with them."""
    record_departures(events, seats)
    levels = {s.number: s.bot_level for s in seats if s.bot_level and s.number is not None}
    return tables.bots_to_act(rules, table, levels, TAKEOVER_LEVEL)


def _replayed(game_id: uuid.UUID, seq: int, retry: Retry | None) -> Submitted:
    head = _loaded(game_id)
    storage.heads.put(head)
    first = GameEvent.objects.get(game_id=game_id, seq=seq)
    if retry is None:  # a service's own fresh id cannot repeat
        raise Conflict("duplicate_command", "This command was already recorded.")
    return replayed(head.game, first, retry.command, retry.actor(head), head.seats)


def after_commit(
    game: Game,
    notices: tuple[publishing.Notice, ...] | list[publishing.Notice] = (),
    *,
    lobby: bool = False,
    bots: bool = False,
    bot_turns: list[tuple[int, str]] | None = None,
    turn_users: list[int] | None = None,
) -> None:
    """After commit (at once in autocommit): send ``notices`` to the channel layer (with
    ``lobby``: the game's sockets and the lobby are told the table changed), then have the
    bot turns scheduled: ``bot_turns`` (seat, level), found by the write, or with ``bots``
    found by the bots app (queries). Both through ``signals.bot_turns_due``. Then the
    people now to act at a turn-based table (``turn_users``) through
    ``signals.turn_passed``."""
    head = game.head_seq
    if lobby:
        notices = [
            *notices,
            publishing.game_advanced(game.id, head),
            publishing.lobby_changed(game.id),
        ]

    def notify() -> None:
        # The write is committed, so it stands whatever fails here (Redis down, a
        # broker refusing the bot task): each step is logged and the others still run.
        # What is lost is made good later: clients catch up by seq, and the bot turns
        # owed are sent again from the game's row (bots/scheduling.py).
        if notices:
            publishing.send(notices)
        if bots or bot_turns:
            _bot_turns_due(game, head, None if bots else bot_turns)
        if turn_users:
            _turn_passed(game, head, turn_users)

    if notices or bots or bot_turns or turn_users:
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


def _turn_passed(game: Game, head: int, user_ids: list[int]) -> None:
    answers = signals.turn_passed.send_robust(
        sender=Game, game=game, head_seq=head, user_ids=user_ids
    )
    for receiver, answer in answers:
        if isinstance(answer, Exception):
            log.error("game %s at seq %s: %r failed", game.id, head, receiver, exc_info=answer)


def bots_owed(game: Game, now: datetime) -> dict[str, Any]:
    """The game row's record of bot turns owed at a new head (none: both cleared): when
    the bots app sends them again unless their task ran first (bots/scheduling.py)."""
    lease = timedelta(seconds=game.think_seconds + settings.BOT_LEASE_SECONDS)
    return {"bots_due_at": now + lease, "bots_sends": 0}


def require_active(game: Game) -> None:
    if game.status != Game.Status.ACTIVE:
        raise Conflict("game_not_active", "This game is not in progress.")


def seat_of(game: Game, user: User | None, seats: list[Seat] | None = None) -> Seat | None:
    """The user's seat at ``game``; from ``seats`` when the caller already read them."""
    if user is None or not user.is_authenticated:
        return None
    if seats is not None:
        return next((s for s in seats if s.user_id == user.pk), None)
    return game.seats.filter(user=user).select_related("user").first()


def playing_seat(game: Game, user: User | None, seats: list[Seat] | None = None) -> Seat:
    """The user's own seat, still played by them (not left, not taken over), whose account
    is active as the database has it now (the seats are read under the game's lock: an
    account deactivated after the request authenticated, or after its socket opened, is
    refused here)."""
    seat = seat_of(game, user, seats)
    if seat is None or seat.number is None:
        raise Forbidden("not_seated", "You have no seat at this table.")
    if seat.user is not None and not seat.user.is_active:  # seat_of found the user's seat
        raise Forbidden("account_inactive", "This account is deactivated.")
    if seat.resigned:
        raise Forbidden("resigned", "You resigned from this game.")
    if seat.departed:
        raise Forbidden("seat_departed", "You were removed from this game; a bot plays on.")
    return seat


def _row_changes(
    game: Game, table: tables.TableState, now: datetime, head_seq: int, bots_to_act: bool
) -> dict[str, Any]:
    """The game row's fields a write sets: the head, the bot turns owed there (or none),
    the clock deadline when it moves and the result when the game ends."""
    changes: dict[str, Any] = {"head_seq": head_seq}
    changes |= bots_owed(game, now) if bots_to_act else {"bots_due_at": None, "bots_sends": 0}
    deadline = clock_deadline_of(table)
    if deadline != game.clock_deadline:
        changes["clock_deadline"] = deadline
    if table.over:
        changes["status"] = Game.Status.ABORTED if table.aborted else Game.Status.FINISHED
        changes["finished_at"] = now
        changes["outcome"] = table.outcome.as_json() if table.outcome else None
    return changes


def record_departures(events: list[Any], seats: list[Seat]) -> bool:
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
