"""What the service adds around a ruleset, as pure functions (no Django).

The table state wraps the ruleset's state with the facts the service records itself:
who left the table (resigned, was expelled after a timeout, or was removed by a
moderator), the clocks, whether the game is finished or aborted. The write path and the
auditor's re-execution both go through ``start_events`` and ``command_events``, so the
same seed, commands and recorded times give the same events byte for byte.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from games import clocks
from games.rules.base import Event, IllegalCommand, Outcome, Ruleset, seeded_rng

GAME_STARTED = "table_started"
SEAT_RESIGNED = "seat_resigned"
GAME_ABORTED = "game_aborted"
GAME_FINISHED = "result_declared"
CLOCK_PRESSED = "clock_pressed"
CLOCK_EXPIRED = "clock_expired"
TURN_SKIPPED = "turn_skipped"
SEAT_EXPELLED = "seat_expelled"
SEAT_KICKED = "seat_kicked"
SERVICE_EVENTS = frozenset(
    (GAME_STARTED, SEAT_RESIGNED, GAME_ABORTED, GAME_FINISHED, CLOCK_PRESSED, CLOCK_EXPIRED)
    + (TURN_SKIPPED, SEAT_EXPELLED, SEAT_KICKED)
)

# Commands the service itself answers (the rules engine never sees them).
RESIGN = "resign"
ABORT = "abort"
START = "start"
TIMEOUT = "timeout"  # the clock sweep (actor "system")
SKIP = "skip"  # another player, once a seat is out of time: a bot plays this one turn
EXPEL = "expel"  # another player, once a seat is out of time: a bot plays on for good
KICK = "kick"  # a moderator removes a player: a bot plays on for good
SERVICE_COMMANDS = frozenset({RESIGN, ABORT, START, TIMEOUT, SKIP, EXPEL, KICK})
# How a departure that leaves one seat ends the game (result_declared's "by").
ENDED_BY = {SEAT_RESIGNED: "resignation", SEAT_EXPELLED: "expulsion", SEAT_KICKED: "removal"}

# Who sent a command, as the log's actor label begins: seat, bot, staff or system.
SEAT_ACTOR, BOT_ACTOR, STAFF_ACTOR, SYSTEM_ACTOR = "seat", "bot", "staff", "system"


@dataclass
class TableState:
    rules: Any
    players: int
    resigned: list[int] = field(default_factory=list)
    finished: bool = False
    aborted: bool = False
    outcome: Outcome | None = None
    expelled: list[int] = field(default_factory=list)
    kicked: list[int] = field(default_factory=list)
    # Every seat that left the table (resigned, expelled, kicked), in order: they rank
    # last, later leavers above earlier ones; a medium bot plays each of them.
    departures: list[int] = field(default_factory=list)
    # Seats out of time whose current turn the others had skipped: a bot plays it.
    skipping: list[int] = field(default_factory=list)
    clock: clocks.Clock | None = None

    @property
    def over(self) -> bool:
        return self.finished or self.aborted


def seat_players(joined: list[dict[str, Any]], seed: str) -> list[dict[str, Any]]:
    """Random seating from the seed, so an auditor can re-derive it.

    ``joined`` lists ``{"name", "bot"}`` in joining order; the result is in seat order,
    each with its ``seat`` number and the ``joined`` index it came from.
    """
    order = list(range(len(joined)))
    seeded_rng(seed, 0).shuffle(order)
    return [{"seat": n, "joined": j, **joined[j]} for n, j in enumerate(order)]


def start_events(
    ruleset: Ruleset,
    options: dict[str, Any],
    players: list[dict[str, Any]],
    seed: str,
    commitment: str,
    *,
    time_control: dict[str, Any] | None = None,
    now_ms: int | None = None,
) -> list[Event]:
    """``players`` are ``{"seat", "name", "bot"}`` in seat order.

    A timed table records its time control in ``table_started`` and starts the clocks of
    the seats to act with a first ``clock_pressed`` (at ``now_ms``, the start's time).
    """
    public: dict[str, Any] = {
        "ruleset": ruleset.key,
        "version": ruleset.version,
        "options": options,
        "players": [{"seat": p["seat"], "name": p["name"], "bot": p["bot"]} for p in players],
        "seed_commitment": commitment,
    }
    if clocks.is_timed(time_control):
        public["time_control"] = dict(time_control)
    events = [
        Event(GAME_STARTED, public),
        *ruleset.setup(options, len(players), seeded_rng(seed, 1)),
    ]
    if clocks.is_timed(time_control):
        assert now_ms is not None, "a timed game starts at a time"
        table = fold(ruleset, events)
        pressed = _press(ruleset, table, now_ms, mover=None)
        if pressed is not None:
            events.append(pressed)
    return events


def apply(ruleset: Ruleset, table: TableState | None, event: Event) -> TableState:
    """Fold one event (service or rules) into the table state; may mutate ``table``."""
    if event.type == GAME_STARTED:
        players = event.public["players"]
        control = event.public.get("time_control")
        clock = clocks.start_clock(control, players) if clocks.is_timed(control) else None
        return TableState(rules=None, players=len(players), clock=clock)
    assert table is not None, "the first event of a game is table_started"
    kind = event.type
    if kind in (SEAT_RESIGNED, SEAT_EXPELLED, SEAT_KICKED):
        seat = event.public["seat"]
        {SEAT_RESIGNED: table.resigned, SEAT_EXPELLED: table.expelled, SEAT_KICKED: table.kicked}[
            kind
        ].append(seat)
        table.departures.append(seat)
        if seat in table.skipping:
            table.skipping.remove(seat)
    elif kind == GAME_ABORTED:
        table.aborted = True
    elif kind == GAME_FINISHED:
        table.finished = True
        table.outcome = Outcome.from_json(event.public["outcome"])
    elif kind == CLOCK_PRESSED:
        assert table.clock is not None, "clock_pressed at an untimed table"
        table.clock.set_state(event.public)
    elif kind == CLOCK_EXPIRED:
        assert table.clock is not None, "clock_expired at an untimed table"
        table.clock.timed_out.add(event.public["seat"])
    elif kind == TURN_SKIPPED:
        table.skipping.append(event.public["seat"])
    else:
        table.rules = ruleset.evolve(table.rules, event)
        if table.skipping:
            # A skipped turn lasts until the seat is no longer to act.
            acting = ruleset.to_act(table.rules)
            table.skipping = [s for s in table.skipping if s in acting]
    return table


def fold(ruleset: Ruleset, events: list[Event], table: TableState | None = None) -> TableState:
    for event in events:
        table = apply(ruleset, table, event)
    assert table is not None
    return table


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
        if actor_kind != STAFF_ACTOR:
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
    for event in events:
        apply(ruleset, table, event)
    if not table.over:
        outcome = ruleset.outcome(table.rules)
        if outcome is not None:
            final = _rank_departed_last(outcome, table.departures)
            finished = Event(GAME_FINISHED, {"outcome": final.as_json(), "seed": seed})
            apply(ruleset, table, finished)
            events = [*events, finished]
    if table.clock is not None and not table.over:
        pressed = _press(ruleset, table, _now(now_ms), mover)
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


def _press(ruleset: Ruleset, table: TableState, now_ms: int, mover: int | None) -> Event | None:
    assert table.clock is not None
    state = clocks.press(
        table.clock,
        to_act(ruleset, table),
        set(table.departures),
        set(table.skipping),
        now_ms,
        mover,
    )
    return None if state is None else Event(CLOCK_PRESSED, {"at": now_ms, **state})


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
    """Another player skips the turn of a seat out of time, or expels it."""
    if actor_kind != SEAT_ACTOR or seat is None:
        raise IllegalCommand("not_seated", "Only a player at this table can do that.")
    if seat in table.departures:
        raise IllegalCommand("seat_departed", "You left this game.")
    if table.clock is None:
        raise IllegalCommand("untimed", "This table has no clocks.")
    target = _target(table, command)
    if target == seat:
        raise IllegalCommand("own_seat", "You cannot skip or expel yourself.")
    if target not in table.clock.timed_out:
        raise IllegalCommand("not_out_of_time", "That player still has time.")
    if command["type"] == EXPEL:
        return _depart(table, Event(SEAT_EXPELLED, {"seat": target, "by": seat}), seed)
    if target not in to_act(ruleset, table) or target in table.skipping:
        raise IllegalCommand("not_their_turn", "There is no turn of theirs to skip.")
    return [Event(TURN_SKIPPED, {"seat": target, "by": seat})]


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
        events.append(Event(GAME_FINISHED, result))
    return events


def _rank_departed_last(outcome: Outcome, departures: list[int]) -> Outcome:
    if not departures:
        return outcome
    ranking = [[s for s in group if s not in departures] for group in outcome.ranking]
    ranking = [g for g in ranking if g] + [[s] for s in reversed(departures)]
    return Outcome(outcome.scores, ranking, outcome.breakdown)


def to_act(ruleset: Ruleset, table: TableState) -> set[int]:
    return set() if table.over else ruleset.to_act(table.rules)


def view(ruleset: Ruleset, table: TableState, seat: int | None) -> dict[str, Any]:
    """The viewer's view: the ruleset's view plus the service's own public facts."""
    if table.rules is None:
        return {}
    seen = ruleset.view(table.rules, seat)
    seen["resigned"] = list(table.resigned)
    seen["expelled"] = list(table.expelled)
    seen["kicked"] = list(table.kicked)
    seen["skipping"] = list(table.skipping)
    seen["aborted"] = table.aborted
    if table.clock is not None:
        seen["clock"] = table.clock.view()
    if table.over:
        seen["to_act"] = []
        seen["finished"] = True
        if table.outcome is not None:
            seen["outcome"] = table.outcome.as_json()
    return seen


def dump(ruleset: Ruleset, table: TableState) -> dict[str, Any]:
    """A snapshot. Keys added since the first version appear only when they hold
    something, so snapshots of older games still compare equal on replay."""
    data: dict[str, Any] = {
        "rules": ruleset.dump(table.rules),
        "players": table.players,
        "resigned": table.resigned,
        "finished": table.finished,
        "aborted": table.aborted,
        "outcome": table.outcome.as_json() if table.outcome else None,
    }
    if table.expelled or table.kicked:
        data.update(expelled=table.expelled, kicked=table.kicked, departures=table.departures)
    if table.skipping:
        data["skipping"] = table.skipping
    if table.clock is not None:
        data["clock"] = table.clock.dump()
    return data


def load(ruleset: Ruleset, data: dict[str, Any]) -> TableState:
    clock = clocks.Clock.load(data["clock"]) if data.get("clock") else None
    resigned = list(data["resigned"])
    return TableState(
        rules=ruleset.load(data["rules"]),
        players=data["players"],
        resigned=resigned,
        finished=data["finished"],
        aborted=data["aborted"],
        outcome=Outcome.from_json(data["outcome"]) if data["outcome"] else None,
        expelled=list(data.get("expelled", [])),
        kicked=list(data.get("kicked", [])),
        departures=list(data.get("departures", resigned)),
        skipping=list(data.get("skipping", [])),
        clock=clock,
    )


def copy(ruleset: Ruleset, table: TableState) -> TableState:
    return TableState(
        rules=ruleset.copy_state(table.rules),
        players=table.players,
        resigned=list(table.resigned),
        finished=table.finished,
        aborted=table.aborted,
        outcome=table.outcome,
        expelled=list(table.expelled),
        kicked=list(table.kicked),
        departures=list(table.departures),
        skipping=list(table.skipping),
        clock=clocks.Clock.load(table.clock.dump()) if table.clock else None,
    )
