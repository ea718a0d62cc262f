"""The write path. Every change to a game goes through one of these functions.

Each runs in one transaction holding the game's row lock, appends events through the
store, and publishes (and schedules bot turns) only after commit.
"""

from __future__ import annotations

import secrets
import uuid
from dataclasses import dataclass
from typing import Any

from django.contrib.auth.models import AbstractBaseUser
from django.db import IntegrityError, transaction
from django.utils import timezone

from games import publish, store
from games import table as tables
from games.chain import seed_commitment
from games.errors import Conflict, Forbidden, NotFound, ServiceError, from_illegal
from games.models import Game, GameEvent, Seat
from games.rules import all_rulesets, get_ruleset
from games.rules.base import IllegalCommand, Ruleset

BOT_LEVELS = ("easy", "medium", "hard")


@dataclass(frozen=True)
class Submitted:
    events: list[GameEvent]
    head_seq: int
    replayed: bool = False


# ---- helpers ------------------------------------------------------------------------
def _ruleset(key: str) -> Ruleset:
    if key not in {r.key for r in all_rulesets()}:
        raise ServiceError("unknown_ruleset", f"There is no game called {key!r}.")
    return get_ruleset(key)


def _locked(game_id: uuid.UUID | str) -> Game:
    try:
        return Game.objects.select_for_update().get(pk=game_id)
    except (Game.DoesNotExist, ValueError, TypeError) as exc:
        raise NotFound("not_found", "No such table.") from exc


def _after_commit(game: Game, *, lobby: bool = False, bots: bool = False) -> None:
    game_id, head = game.id, game.head_seq

    def notify() -> None:
        publish.game_advanced(game_id, head)
        if lobby:
            publish.lobby_changed(game_id)
        if bots:
            from bots.dispatch import schedule_bot_turns

            schedule_bot_turns(game_id)

    transaction.on_commit(notify)


def _require_open(game: Game) -> None:
    if game.status != Game.Status.OPEN:
        raise Conflict("table_not_open", "This table has already started.")


def _require_host(game: Game, user: AbstractBaseUser) -> None:
    if game.created_by_id != user.pk and not user.is_staff:
        raise Forbidden("forbidden", "Only the table's host can do that.")


# ---- tables -------------------------------------------------------------------------
@transaction.atomic
def table_create(
    *,
    user: AbstractBaseUser,
    ruleset: str,
    seats: int,
    options: dict[str, Any] | None = None,
    join: bool = True,
) -> Game:
    rules = _ruleset(ruleset)
    if not isinstance(options, dict | type(None)):
        raise ServiceError("bad_option", "Options must be a JSON object.")
    try:
        cleaned = rules.clean_options(options)
    except IllegalCommand as exc:
        raise from_illegal(exc) from exc
    low, high = rules.seat_range(cleaned)
    if not isinstance(seats, int) or isinstance(seats, bool) or not low <= seats <= high:
        raise ServiceError("bad_seats", f"{rules.name} is played by {low} to {high} players.")
    seed = secrets.token_hex(32)
    game = Game.objects.create(
        ruleset=rules.key,
        ruleset_version=rules.version,
        options=cleaned,
        seats_wanted=seats,
        seed=seed,
        seed_commitment=seed_commitment(seed),
        created_by=user,
    )
    if join:
        Seat.objects.create(game=game, user=user, joined_order=0)
    _after_commit(game, lobby=True)
    return game


def _next_order(game: Game) -> int:
    last = game.seats.order_by("-joined_order").first()
    return last.joined_order + 1 if last else 0


def _require_room(game: Game) -> None:
    if game.seats.count() >= game.seats_wanted:
        raise Conflict("table_full", "Every seat at this table is taken.")


@transaction.atomic
def table_join(*, game_id: uuid.UUID, user: AbstractBaseUser) -> Seat:
    game = _locked(game_id)
    _require_open(game)
    if game.seats.filter(user=user).exists():
        raise Conflict("already_seated", "You already have a seat at this table.")
    _require_room(game)
    seat = Seat.objects.create(game=game, user=user, joined_order=_next_order(game))
    _after_commit(game, lobby=True)
    return seat


@transaction.atomic
def table_leave(*, game_id: uuid.UUID, user: AbstractBaseUser) -> None:
    game = _locked(game_id)
    _require_open(game)
    deleted, _ = game.seats.filter(user=user, bot_level="").delete()
    if not deleted:
        raise ServiceError("not_seated", "You have no seat at this table.")
    _after_commit(game, lobby=True)


@transaction.atomic
def bot_add(*, game_id: uuid.UUID, user: AbstractBaseUser, level: str = "medium") -> Seat:
    game = _locked(game_id)
    _require_open(game)
    _require_host(game, user)
    if level not in BOT_LEVELS:
        raise ServiceError("bad_bot_level", f"Bot level must be one of {', '.join(BOT_LEVELS)}.")
    _require_room(game)
    seat = Seat.objects.create(game=game, bot_level=level, joined_order=_next_order(game))
    _after_commit(game, lobby=True)
    return seat


@transaction.atomic
def bot_remove(*, game_id: uuid.UUID, user: AbstractBaseUser, seat_id: int) -> None:
    game = _locked(game_id)
    _require_open(game)
    _require_host(game, user)
    deleted, _ = game.seats.filter(pk=seat_id, user__isnull=True).delete()
    if not deleted:
        raise NotFound("not_found", "No such bot at this table.")
    _after_commit(game, lobby=True)


@transaction.atomic
def game_start(*, game_id: uuid.UUID, user: AbstractBaseUser) -> Game:
    game = _locked(game_id)
    _require_open(game)
    _require_host(game, user)
    rules = get_ruleset(game.ruleset)
    seats = list(game.seats.select_related("user").order_by("joined_order"))
    low, high = rules.seat_range(game.options)
    if not low <= len(seats) <= high:
        raise Conflict("not_enough_players", f"{rules.name} needs {low} to {high} players.")
    joined = [{"name": s.display_name, "bot": s.bot_level} for s in seats]
    players = tables.seat_players(joined, game.seed)
    for player in players:
        seat = seats[player["joined"]]
        seat.number = player["seat"]
        seat.save(update_fields=["number"])
    events = tables.start_events(rules, game.options, players, game.seed, game.seed_commitment)
    table = tables.fold(rules, events)
    game.status = Game.Status.ACTIVE
    game.started_at = timezone.now()
    game.seats_wanted = len(seats)
    game.save(update_fields=["status", "started_at", "seats_wanted"])
    store.append(
        game,
        events,
        actor=store.Actor("system"),
        command={"type": tables.START, "joined": joined},
        command_id=uuid.uuid4(),
        table_after=table,
    )
    _after_commit(game, lobby=True, bots=True)
    return game


# ---- commands -----------------------------------------------------------------------
def seat_of(game: Game, user: AbstractBaseUser | None) -> Seat | None:
    if user is None or not user.is_authenticated:
        return None
    return game.seats.filter(user=user).first()


@transaction.atomic
def game_submit(
    *,
    game_id: uuid.UUID,
    command: dict[str, Any],
    user: AbstractBaseUser | None = None,
    bot_seat: int | None = None,
    command_id: uuid.UUID | None = None,
    expected_seq: int | None = None,
) -> Submitted:
    """Validate and append one command from a user's seat (or a bot-played seat)."""
    game = _locked(game_id)
    command_id = command_id or uuid.uuid4()
    recorded = GameEvent.objects.filter(game=game, command_id=command_id).first()
    if recorded is not None:
        return _replayed(game, recorded, command)
    if expected_seq is not None and expected_seq != game.head_seq:
        raise Conflict(
            "stale_seq",
            f"The game has moved on (head is {game.head_seq}); refresh and try again.",
            head=game.head_seq,
        )
    if game.status != Game.Status.ACTIVE:
        raise Conflict("game_not_active", "This game is not in progress.")
    if not isinstance(command, dict):
        raise ServiceError("bad_command", "A command is a JSON object with a 'type'.")
    if bot_seat is not None:
        actor, seat = store.Actor(f"bot:{bot_seat}", bot_seat), bot_seat
    else:
        seat_row = seat_of(game, user)
        if seat_row is None or seat_row.number is None:
            raise Forbidden("not_seated", "You have no seat at this table.")
        if seat_row.resigned:
            raise Forbidden("resigned", "You resigned from this game.")
        actor, seat = store.Actor(f"seat:{seat_row.number}", seat_row.number), seat_row.number
    return _decide_and_append(game, actor, seat, command, command_id)


def _decide_and_append(
    game: Game,
    actor: store.Actor,
    seat: int | None,
    command: dict[str, Any],
    command_id: uuid.UUID,
    *,
    staff: bool = False,
) -> Submitted:
    rules = get_ruleset(game.ruleset)
    table = store.load_table(game)
    try:
        events = tables.command_events(
            rules, table, game.seed, game.head_seq, seat, command, actor_is_staff=staff
        )
    except IllegalCommand as exc:
        # The state may be half-folded only if decide succeeded; it raised, so it is
        # untouched: keep it cached for the next command.
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
        )
    except IntegrityError as exc:  # a racing duplicate command_id on SQLite
        raise Conflict("duplicate_command", "This command was already recorded.") from exc
    over = table.over
    if over:
        game.status = Game.Status.ABORTED if table.aborted else Game.Status.FINISHED
        game.finished_at = timezone.now()
        game.outcome = table.outcome.as_json() if table.outcome else None
        game.save(update_fields=["status", "finished_at", "outcome"])
    _after_commit(game, lobby=over, bots=not over)
    return Submitted(events=rows, head_seq=game.head_seq)


def _replayed(game: Game, first: GameEvent, command: dict[str, Any]) -> Submitted:
    """An idempotent retry: answer with what the first delivery recorded."""
    if first.command != command:
        raise Conflict("command_id_reused", "This command_id was used for another command.")
    batch = [first]
    for row in GameEvent.objects.filter(game=game, seq__gt=first.seq).order_by("seq"):
        if row.command_id is not None:
            break
        batch.append(row)
    return Submitted(events=batch, head_seq=game.head_seq, replayed=True)


@transaction.atomic
def game_resign(*, game_id: uuid.UUID, user: AbstractBaseUser) -> Submitted:
    """The seat is played by a medium bot from now on and ranks last (see table._resign)."""
    game = _locked(game_id)
    if game.status != Game.Status.ACTIVE:
        raise Conflict("game_not_active", "This game is not in progress.")
    seat_row = seat_of(game, user)
    if seat_row is None or seat_row.number is None:
        raise Forbidden("not_seated", "You have no seat at this table.")
    actor = store.Actor(f"seat:{seat_row.number}", seat_row.number)
    result = _decide_and_append(game, actor, seat_row.number, {"type": tables.RESIGN}, uuid.uuid4())
    seat_row.resigned = True
    seat_row.bot_level = seat_row.bot_level or "medium"
    seat_row.save(update_fields=["resigned", "bot_level"])
    return result


@transaction.atomic
def game_abort(*, game_id: uuid.UUID, staff_user: AbstractBaseUser, reason: str) -> Submitted:
    game = _locked(game_id)
    if not staff_user.is_staff:
        raise Forbidden("forbidden", "Only a moderator can abort a game.")
    if game.status == Game.Status.OPEN:
        game.status = Game.Status.ABORTED
        game.finished_at = timezone.now()
        game.save(update_fields=["status", "finished_at"])
        _after_commit(game, lobby=True)
        return Submitted(events=[], head_seq=game.head_seq)
    if game.status != Game.Status.ACTIVE:
        raise Conflict("game_not_active", "This game is not in progress.")
    actor = store.Actor(f"staff:{staff_user.get_username()}")
    return _decide_and_append(
        game, actor, None, {"type": tables.ABORT, "reason": reason}, uuid.uuid4(), staff=True
    )
