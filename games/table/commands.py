"""Commands into events: the players' and the service's own (resign, kick, timeout, skip,
expel, abort), deciding with the ruleset and pressing the clocks."""

from __future__ import annotations

from typing import Any

from games.rules.base import Event, IllegalCommand, Outcome, Ruleset, seeded_rng
from games.table.state import (
    ABORT,
    ABSENT,
    CLOCK_EXPIRED,
    ENDED_BY,
    EXPEL,
    GAME_ABORTED,
    KICK,
    RESIGN,
    RESULT_DECLARED,
    SEAT_ABSENT,
    SEAT_ACTOR,
    SEAT_EXPELLED,
    SEAT_KICKED,
    SEAT_RESIGNED,
    SEAT_RETURNED,
    SKIP,
    STAFF_ACTOR,
    SYSTEM_ACTOR,
    TIMEOUT,
    TURN_SKIPPED,
    TableState,
    apply,
    press_clocks,
    to_act,
)


def command_events(
    ruleset: Ruleset,
    table: TableState,
    seed: str,
    head_seq: int,
    seat: int | None,
    command: dict[str, Any],
    *,
    actor_kind: str = SEAT_ACTOR,
    now_ms: int | None = None,
) -> list[Event]:
    """Decide a command and fold its events into ``table`` (mutated in place).

    ``actor_kind`` is who sent it (seat, bot, staff, system) and ``now_ms`` when: the
    clocks are pressed at that time. Appends ``result_declared`` (with the outcome and
    the revealed seed) when the rules report the game over.
    """
    if table.over:
        raise IllegalCommand("game_over", "This game is over.")
    kind = command.get("type") if isinstance(command, dict) else None
    mover = None
    if kind == ABORT:
        # The system aborts for a player a game nobody has moved in yet
        # (games/services/lobby.py game_abort_unplayed).
        if actor_kind not in (STAFF_ACTOR, SYSTEM_ACTOR):
            raise IllegalCommand("forbidden", "Only a moderator can abort a game.")
        reason = str(command.get("reason", ""))[:500]
        events = [Event(GAME_ABORTED, {"reason": reason, "seed": seed})]
    elif kind == RESIGN:
        if seat is None:
            raise IllegalCommand("not_seated", "You have no seat at this table.")
        if seat in table.departures:
            raise IllegalCommand("resigned", "You already left this game.")
        events = _depart(table, Event(SEAT_RESIGNED, {"seat": seat}), seed)
    elif kind == KICK:
        if actor_kind != STAFF_ACTOR:
            raise IllegalCommand("forbidden", "Only a moderator can remove a player.")
        target = _target(table, command)
        reason = str(command.get("reason", ""))[:500]
        events = _depart(table, Event(SEAT_KICKED, {"seat": target, "reason": reason}), seed)
    elif kind == TIMEOUT:
        events = _timeout(table, command, actor_kind, now_ms)
    elif kind == ABSENT:
        events = _absent(ruleset, table, command, actor_kind)
    elif kind in (SKIP, EXPEL):
        events = _after_timeout(ruleset, table, seat, command, actor_kind, seed)
    else:
        if seat is None:
            raise IllegalCommand("not_seated", "You have no seat at this table.")
        if actor_kind == SEAT_ACTOR:
            mover = seat
            if table.clock is not None and table.clock.expired(seat, _now(now_ms)):
                raise IllegalCommand("out_of_time", "Your time has run out.")
        # A resigned seat is played on by a bot; the service refuses its human.
        events = ruleset.decide(table.rules, seat, command, seeded_rng(seed, head_seq))
        if mover is not None and mover in table.absent:
            events = [Event(SEAT_RETURNED, {"seat": mover}), *events]  # back at the table
    for event in events:
        apply(ruleset, table, event)
    if not table.over:
        outcome = ruleset.outcome(table.rules)
        if outcome is not None:
            final = _rank_departed_last(outcome, table.departures)
            finished = Event(RESULT_DECLARED, {"outcome": final.as_json(), "seed": seed})
            apply(ruleset, table, finished)
            events = [*events, finished]
    if table.clock is not None and not table.over:
        pressed = press_clocks(ruleset, table, _now(now_ms), mover)
        if pressed is not None:
            apply(ruleset, table, pressed)
            events = [*events, pressed]
    return events


def _now(now_ms: int | None) -> int:
    assert now_ms is not None, "a command at a timed table needs its time"
    return now_ms


def _target(table: TableState, command: dict[str, Any]) -> int:
    target = command.get("seat")
    if not isinstance(target, int) or isinstance(target, bool) or not 0 <= target < table.players:
        raise IllegalCommand("bad_seat", "Name the seat by its number.")
    if target in table.departures:
        raise IllegalCommand("seat_departed", "A bot already plays that seat.")
    return target


def _timeout(
    table: TableState, command: dict[str, Any], actor_kind: str, now_ms: int | None
) -> list[Event]:
    """The clock sweep's command: the seat's clock has run out at ``now_ms``."""
    if actor_kind != SYSTEM_ACTOR:
        raise IllegalCommand("forbidden", "Only the server's clock declares a timeout.")
    if table.clock is None:
        raise IllegalCommand("untimed", "This table has no clocks.")
    target = _target(table, command)
    if not table.clock.expired(target, _now(now_ms)):
        raise IllegalCommand("clock_running", "That clock has not run out.")
    return [Event(CLOCK_EXPIRED, {"seat": target, "at": now_ms})]


def _after_timeout(
    ruleset: Ruleset,
    table: TableState,
    seat: int | None,
    command: dict[str, Any],
    actor_kind: str,
    seed: str,
) -> list[Event]:
    """Another player skips the turn of a seat out of time, or expels it.

    The system (actor ``system``) does the same for bot opponents, who apply the table's
    policy for themselves (games.services.timing); it is recorded with ``by`` None."""
    system = actor_kind == SYSTEM_ACTOR
    if not system and (actor_kind != SEAT_ACTOR or seat is None):
        raise IllegalCommand("not_seated", "Only a player at this table can do that.")
    if not system and seat in table.departures:
        raise IllegalCommand("seat_departed", "You left this game.")
    if table.clock is None and not table.absent:
        raise IllegalCommand("untimed", "This table has no clocks.")
    target = _target(table, command)
    if not system and target == seat:
        raise IllegalCommand("own_seat", "You cannot skip or expel yourself.")
    late = table.clock.timed_out if table.clock is not None else table.absent
    if target not in late:
        raise IllegalCommand("not_out_of_time", "That player still has time.")
    by = None if system else seat
    if command["type"] == EXPEL:
        return _depart(table, Event(SEAT_EXPELLED, {"seat": target, "by": by}), seed)
    if target not in to_act(ruleset, table) or target in table.skipping:
        raise IllegalCommand("not_their_turn", "There is no turn of theirs to skip.")
    return [Event(TURN_SKIPPED, {"seat": target, "by": by})]


def _absent(
    ruleset: Ruleset, table: TableState, command: dict[str, Any], actor_kind: str
) -> list[Event]:
    """The sweep's command at an untimed table: the seat to act has been gone too long."""
    if actor_kind != SYSTEM_ACTOR:
        raise IllegalCommand("forbidden", "Only the server says a player is gone.")
    if table.clock is not None:
        raise IllegalCommand("timed", "A timed table has its clocks.")
    target = _target(table, command)
    if target in table.absent or target not in to_act(ruleset, table):
        raise IllegalCommand("not_their_turn", "That player is not keeping the table waiting.")
    return [Event(SEAT_ABSENT, {"seat": target})]


def _depart(table: TableState, departed: Event, seed: str) -> list[Event]:
    """A seat leaves: a bot plays it from now on and it ranks last.

    DECISION (as on Board Game Arena): when only one seat has not left, the game ends at
    once; that seat wins and later leavers rank above earlier ones.
    """
    seat = departed.public["seat"]
    events = [departed]
    staying = [s for s in range(table.players) if s not in table.departures and s != seat]
    if len(staying) <= 1:
        order = [*table.departures, seat]
        ranking = [staying] if staying else []
        ranking += [[s] for s in reversed(order)]
        scores = {s: 0 for s in range(table.players)}
        if staying:
            scores[staying[0]] = 1
        outcome = Outcome(scores=scores, ranking=ranking, breakdown={})
        result = {"outcome": outcome.as_json(), "seed": seed, "by": ENDED_BY[departed.type]}
        events.append(Event(RESULT_DECLARED, result))
    return events


def _rank_departed_last(outcome: Outcome, departures: list[int]) -> Outcome:
    if not departures:
        return outcome
    ranking = [[s for s in group if s not in departures] for group in outcome.ranking]
    ranking = [g for g in ranking if g] + [[s] for s in reversed(departures)]
    return Outcome(outcome.scores, ranking, outcome.breakdown)
