"""Open tables: create (with a time control), join, leave, bots, start."""

from __future__ import annotations

import contextlib
import copy
import hashlib
import secrets
import uuid
from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.contrib.auth.models import User
from django.db import transaction
from django.db.models import Count, Q
from django.utils import timezone

from games import clocks, publishing, selectors, storage
from games import table as tables
from games.errors import Conflict, Forbidden, NotFound, ServiceError, from_illegal
from games.models import Challenge, Game, Seat
from games.rules import get_ruleset
from games.rules.base import IllegalCommand
from games.selectors import sources
from games.services import account_news, moderation
from games.services.seating import table_locked
from games.services.writing import (
    BOT_LEVELS,
    BOT_THINK_SECONDS_RANGE,
    Intent,
    Submitted,
    after_commit,
    bots_owed,
    clock_deadline_of,
    command_record,
    people_now_to_act,
    playing_seat,
    ruleset_named,
)
from games.storage.chain import GENESIS, seed_commitment

# Bot levels that search for the table's whole thinking time on every move: they count
# against an account's allowance of searching bots (``_require_bot_allowance``).
THINKING_LEVELS = frozenset({"hard", "expert"})


def _require_open(game: Game) -> None:
    if game.status != Game.Status.OPEN:
        raise Conflict("table_not_open", "This table has already started.")


def _require_host(game: Game, user: User, what: str) -> None:
    """The host, or a moderator (e.g. to start a table its host abandoned): being staff
    is not enough, and a moderator's doing so at another's table goes on the record."""
    if game.created_by_id is not None and game.created_by_id == user.pk:
        return
    if not moderation.can_moderate(user):
        raise Forbidden("forbidden", "Only the table's host can do that.")
    moderation.host_action_record(game=game, moderator=user, what=what)


@transaction.atomic
def table_create(
    *,
    user: User,
    ruleset: str,
    seats: int,
    options: dict[str, Any] | None = None,
    join: bool = True,
    time_control: dict[str, Any] | None = None,
    bot_think_seconds: float | None = None,
    private: bool = False,
    guided: bool = False,
) -> Game:
    """A new table. ``private``: a challenge's table (games/services/challenges.py),
    not listed in the lobby; a bot account opens only those. ``guided``: a guided first
    game (static/js/table/guide.js), dealt the same every time (``guided_seed``)."""
    if not private and sources.is_bot_account(user):
        raise Forbidden(
            "bot_account",
            "A bot account plays only the games it is challenged to or challenges others "
            "to (POST /api/challenge/<username>/), not at the lobby's tables.",
        )
    rules = ruleset_named(ruleset)
    think = _clean_think_seconds(bot_think_seconds)
    if not isinstance(options, dict | type(None)):
        raise ServiceError("bad_option", "Options must be a JSON object.")
    try:
        cleaned = rules.clean_options(options)
        control = clocks.clean_time_control(time_control)
    except IllegalCommand as exc:
        raise from_illegal(exc) from exc
    low, high = rules.seat_range(cleaned)
    if not isinstance(seats, int) or isinstance(seats, bool) or not low <= seats <= high:
        raise ServiceError("bad_seats", f"{rules.name} is played by {low} to {high} players.")
    seed = guided_seed(rules.key) if guided else secrets.token_hex(32)
    game = Game.objects.create(
        ruleset=rules.key,
        ruleset_version=rules.version,
        options=cleaned,
        seats_wanted=seats,
        seed=seed,
        seed_commitment=seed_commitment(seed),
        created_by=user,
        time_control=control,
        bot_think_seconds=think,
        private=private,
    )
    if join:
        Seat.objects.create(game=game, user=user, joined_order=0)
    after_commit(game, lobby=not game.private)
    return game


def guided_seed(ruleset: str) -> str:
    """A guided game's seed: the same for every guided table of a game, so each deal is
    the one its guide was written on. Known to all (such a table is practice against a
    bot, unrated), its commitment and the audit work as for any other."""
    return hashlib.sha256(f"kingdom.guided-deal.{ruleset}".encode()).hexdigest()


def _clean_think_seconds(value: Any) -> float | None:
    """A table's thinking time for search bots: None (the server's default) or seconds
    within BOT_THINK_SECONDS_RANGE."""
    if value is None:
        return None
    low, high = BOT_THINK_SECONDS_RANGE
    if isinstance(value, bool) or not isinstance(value, int | float) or not low <= value <= high:
        raise ServiceError(
            "bad_bot_think_seconds",
            f"A bot's thinking time is a number of seconds from {low:g} to {high:g}.",
        )
    return float(value)


def _require_think_budget(seconds: float) -> None:
    budget = settings.BOT_THINK_BUDGET_SECONDS
    if seconds > budget:
        raise Conflict(
            "bot_think_budget",
            f"Your tables' thinking bots would think {seconds:g} seconds a round; one "
            f"account may have them think {budget:g}. Fewer hard or expert bots or a shorter "
            "thinking time would fit.",
        )


def _require_bot_allowance(game: Game, thinking: int) -> None:
    """What one account (the table's host) may have its bots do at once: so many tables
    of thinking bots in play, thinking so long a round in all. The bot runners are shared;
    these keep one account from filling them."""
    if not thinking or game.created_by_id is None:
        return
    in_play = list(
        Game.objects.filter(created_by_id=game.created_by_id, status=Game.Status.ACTIVE)
        .exclude(pk=game.pk)
        .annotate(thinking=Count("seats", filter=Q(seats__bot_level__in=THINKING_LEVELS)))
        .filter(thinking__gt=0)
    )
    most = settings.BOT_SEARCH_TABLES_PER_ACCOUNT
    if len(in_play) >= most:
        raise Conflict(
            "too_many_bot_tables",
            f"One account may have {most} tables of hard or expert bots in play at once; "
            "finish or abort one first.",
        )
    _require_think_budget(
        sum(g.think_seconds * g.thinking for g in in_play) + game.think_seconds * thinking
    )


def _next_order(game: Game) -> int:
    last = game.seats.order_by("-joined_order").first()
    return last.joined_order + 1 if last else 0


def _require_room(game: Game) -> None:
    """A seat free, not counting those promised to challenged players."""
    promised = game.challenges.filter(status=Challenge.Status.CREATED).count()
    if game.seats.count() + promised >= game.seats_wanted:
        raise Conflict("table_full", "Every seat at this table is taken.")


@transaction.atomic
def table_join(*, game_id: uuid.UUID | str, user: User, invited: bool = False) -> Seat:
    """Sit down at an open table; ``invited``: the seat a challenge promised (the only
    way to a private table's seats, and a bot account's only way to a seat)."""
    game = table_locked(game_id)
    _require_open(game)
    if game.seats.filter(user=user).exists():
        raise Conflict("already_seated", "You already have a seat at this table.")
    if not invited:
        if game.private:
            raise Forbidden("private_table", "Only the players challenged to it sit here.")
        if sources.is_bot_account(user):
            raise Forbidden("bot_account", "A bot account plays only through challenges.")
        _require_room(game)
    elif game.seats.count() >= game.seats_wanted:
        raise Conflict("table_full", "Every seat at this table is taken.")
    seat = Seat.objects.create(game=game, user=user, joined_order=_next_order(game))
    after_commit(game, lobby=not game.private)
    return seat


@transaction.atomic
def table_leave(*, game_id: uuid.UUID | str, user: User) -> None:
    game = table_locked(game_id)
    _require_open(game)
    deleted, _ = game.seats.filter(user=user, bot_level="").delete()
    if not deleted:
        raise ServiceError("not_seated", "You have no seat at this table.")
    after_commit(game, lobby=not game.private)


@transaction.atomic
def bot_add(*, game_id: uuid.UUID | str, user: User, level: str = "medium") -> Seat:
    game = table_locked(game_id)
    _require_open(game)
    _require_host(game, user, f"added a bot ({level})")
    if level not in BOT_LEVELS:
        raise ServiceError("bad_bot_level", f"Bot level must be one of {', '.join(BOT_LEVELS)}.")
    _require_room(game)
    if level in THINKING_LEVELS:
        thinking = game.seats.filter(bot_level__in=THINKING_LEVELS).count() + 1
        _require_think_budget(game.think_seconds * thinking)
    seat = Seat.objects.create(game=game, bot_level=level, joined_order=_next_order(game))
    after_commit(game, lobby=not game.private)
    return seat


@transaction.atomic
def bot_remove(*, game_id: uuid.UUID | str, user: User, seat_id: int) -> None:
    game = table_locked(game_id)
    _require_open(game)
    _require_host(game, user, f"removed a bot (seat id {seat_id})")
    deleted, _ = game.seats.filter(pk=seat_id, user__isnull=True).delete()
    if not deleted:
        raise NotFound("not_found", "No such bot at this table.")
    after_commit(game, lobby=not game.private)


@transaction.atomic
def game_start(*, game_id: uuid.UUID | str, user: User) -> Game:
    game = table_locked(game_id)
    _require_open(game)
    _require_host(game, user, "started the game")
    rules = get_ruleset(game.ruleset)
    seats = list(game.seats.select_related("user").order_by("joined_order"))
    low, high = rules.seat_range(game.options)
    if not low <= len(seats) <= high:
        raise Conflict("not_enough_players", f"{rules.name} needs {low} to {high} players.")
    _require_bot_allowance(game, sum(1 for s in seats if s.bot_level in THINKING_LEVELS))
    joined = [{"name": s.display_name, "bot": s.bot_level} for s in seats]
    players = tables.seat_players(joined, game.seed)
    for player in players:
        seat = seats[player["joined"]]
        seat.number = player["seat"]
        seat.save(update_fields=["number"])
    now = timezone.now()
    command: dict[str, Any] = {"type": tables.START, "joined": joined}
    if clocks.is_timed(game.time_control):
        command["time_control"] = game.time_control
    events = tables.start_events(
        rules,
        game.options,
        players,
        game.seed,
        game.seed_commitment,
        time_control=game.time_control,
        now_ms=clocks.ms_of(now),
    )
    table = tables.fold(rules, events)
    rows = storage.new_rows(
        game,
        events,
        after=0,
        prev_hash=GENESIS,
        actor=storage.Actor("system"),
        command=command,
        command_id=uuid.uuid4(),
        now=now,
    )
    changes = {
        "head_seq": rows[-1].seq,
        "status": Game.Status.ACTIVE,
        "started_at": now,
        "seats_wanted": len(seats),
        "clock_deadline": clock_deadline_of(table),
        **bots_owed(game, now),
    }
    # Under the lobby's lock, so the condition holds; the log's rule all the same.
    storage.recorder.record(
        game.id,
        storage.recorder.Condition(0, str(Game.Status.OPEN)),
        [storage.event_record(row) for row in rows],
        changes,
        storage.checkpoint_after(game, 0, rows, table),
    )
    for field, value in changes.items():
        setattr(game, field, value)
    held = storage.Head(copy.copy(game), table, rows[-1].hash, seats)
    transaction.on_commit(lambda: storage.heads.put(held))
    # At a turn-based table the first people to act are mailed "your turn" (the host
    # who started it has the page open, so not them).
    turning = people_now_to_act(rules, game, table, seats, None)
    after_commit(game, lobby=not game.private, bots=True, turn_users=turning)
    account_news.game_started(game, seats)
    return game


@transaction.atomic
def game_abort_unplayed(*, game_id: uuid.UUID | str, user: User) -> Submitted:
    """A player ends a game nobody has moved in yet, without a result (``game_aborted``,
    the seed revealed), as a player may abort a game that has not begun on Lichess:
    recorded as the system's doing, with who asked in the reason. Once a seat or a bot
    has acted, resigning is the way out."""

    def choose(head: storage.Head) -> Intent:
        game = head.game
        if game.status != Game.Status.ACTIVE:
            raise Conflict("game_not_active", "This game is not in progress.")
        seat = playing_seat(game, user, head.seats)
        if game.events.exclude(actor="system").exists():
            raise Conflict(
                "game_underway", "A move was made: the game can no longer be aborted; resign."
            )
        name = user.get_username()
        reason = f"{name} (seat {seat.number}) aborted it before the first move."
        return Intent(storage.Actor("system"), None, {"type": tables.ABORT, "reason": reason})

    result = command_record(game_id, choose)
    assert result is not None and result.game is not None
    account_news.game_finished(result.game)
    return result


@transaction.atomic
def table_rematch(*, game_id: uuid.UUID | str, user: User) -> Game:
    """The same game again, for a player of a game that is over: its ruleset, options,
    seats, clock and bots (at their levels), with the other players' seats left for them.

    The first player to ask opens the rematch and hosts it, and the game's sockets are
    told (its players see the way to it); the others asking later join that table (the
    game's row lock keeps two askers from opening two).
    """
    game = table_locked(game_id)
    seats = list(game.seats.order_by("joined_order"))
    humans = [s.user_id for s in seats if s.user_id is not None]
    if user.pk not in humans:
        raise Forbidden("forbidden", "Only the game's players can ask for a rematch.")
    if game.status not in (Game.Status.FINISHED, Game.Status.ABORTED):
        raise Conflict("game_not_over", "A rematch is offered once the game is over.")
    existing = selectors.open_rematch(game)
    if existing is not None:
        if not existing.seats.filter(user=user).exists():
            table_join(game_id=existing.id, user=user)
        return existing
    rematch = table_create(
        user=user,
        ruleset=game.ruleset,
        seats=game.seats_wanted,
        options=game.options,
        time_control=game.time_control or None,
        bot_think_seconds=game.bot_think_seconds,
    )
    # The bots sit down again at their levels; a player who left, played on by a bot,
    # is a player: their seat stays free for them.
    order = 1
    for seat in seats:
        if seat.user_id is None and seat.bot_level:
            Seat.objects.create(game=rematch, bot_level=seat.bot_level, joined_order=order)
            order += 1
    rematch.rematch_of = game
    rematch.save(update_fields=["rematch_of"])
    if len(humans) == 1:
        # Against bots only nobody else is awaited: it starts at once (else, as a table
        # with too many searching bots for its host, it waits open for the host to change
        # it).
        with contextlib.suppress(ServiceError):
            rematch = game_start(game_id=rematch.id, user=user)
    after_commit(rematch, lobby=True)
    offer = selectors.rematch_offer(rematch)
    transaction.on_commit(lambda: publishing.rematch_opened(game.id, offer))
    return rematch


# Open rematch tables one sweep looks at, at most (the oldest first).
REMATCH_SWEEP_BATCH = 100


def stale_rematches_close(*, now: datetime | None = None) -> int:
    """Close the rematch tables still waiting for a player REMATCH_OPEN_MINUTES after
    they opened (aborted before their start, as an abandoned challenge table is): who has
    not come by then is not coming, and the table would wait in the lobby for good.
    Run by the clock sweep; returns how many were closed."""
    now = now or timezone.now()
    cutoff = now - timedelta(minutes=settings.REMATCH_OPEN_MINUTES)
    stale = Game.objects.filter(
        status=Game.Status.OPEN, rematch_of__isnull=False, created_at__lte=cutoff
    )
    closed = 0
    for game_id in stale.order_by("created_at").values_list("id", flat=True)[:REMATCH_SWEEP_BATCH]:
        with transaction.atomic():
            game = table_locked(game_id)
            if game.status != Game.Status.OPEN:  # started or closed meanwhile
                continue
            game.status = Game.Status.ABORTED
            game.finished_at = now
            game.save(update_fields=["status", "finished_at"])
            after_commit(game, lobby=not game.private)
        closed += 1
    return closed
