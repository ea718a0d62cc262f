"""The table state: the service's own facts around the ruleset's state, and the fold of
service and rules events into it."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from games import clocks
from games.rules.base import Event, Outcome, Ruleset, seeded_rng

TABLE_STARTED = "table_started"
SEAT_RESIGNED = "seat_resigned"
GAME_ABORTED = "game_aborted"
RESULT_DECLARED = "result_declared"
CLOCK_PRESSED = "clock_pressed"
CLOCK_EXPIRED = "clock_expired"
TURN_SKIPPED = "turn_skipped"
SEAT_EXPELLED = "seat_expelled"
SEAT_KICKED = "seat_kicked"
# An untimed table: a player to act made no move for ABSENT_AFTER_HOURS (the system says
# so); the others may then skip or expel as after a timeout, until the player moves.
SEAT_ABSENT = "seat_absent"
SEAT_RETURNED = "seat_returned"
SERVICE_EVENTS = frozenset(
    (TABLE_STARTED, SEAT_RESIGNED, GAME_ABORTED, RESULT_DECLARED, CLOCK_PRESSED, CLOCK_EXPIRED)
    + (TURN_SKIPPED, SEAT_EXPELLED, SEAT_KICKED, SEAT_ABSENT, SEAT_RETURNED)
)

# Commands the service itself answers (the rules engine never sees them).
RESIGN = "resign"
ABORT = "abort"
START = "start"
TIMEOUT = "timeout"  # the clock sweep (actor "system")
SKIP = "skip"  # another player, once a seat is out of time: a bot plays this one turn
EXPEL = "expel"  # another player, once a seat is out of time: a bot plays on for good
KICK = "kick"  # a moderator removes a player: a bot plays on for good
ABSENT = "absent"  # the sweep, at an untimed table (actor "system")
SERVICE_COMMANDS = frozenset({RESIGN, ABORT, START, TIMEOUT, SKIP, EXPEL, KICK, ABSENT})
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
    # Untimed tables: seats whose player has been gone too long (see SEAT_ABSENT).
    absent: list[int] = field(default_factory=list)

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
        Event(TABLE_STARTED, public),
        *ruleset.setup(options, len(players), seeded_rng(seed, 1)),
    ]
    if clocks.is_timed(time_control):
        assert now_ms is not None, "a timed game starts at a time"
        table = fold(ruleset, events)
        pressed = press_clocks(ruleset, table, now_ms, mover=None)
        if pressed is not None:
            events.append(pressed)
    return events


def apply(ruleset: Ruleset, table: TableState | None, event: Event) -> TableState:
    """Fold one event (service or rules) into the table state; may mutate ``table``."""
    if event.type == TABLE_STARTED:
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
        if seat in table.absent:
            table.absent.remove(seat)
    elif kind == GAME_ABORTED:
        table.aborted = True
    elif kind == RESULT_DECLARED:
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
    elif kind == SEAT_ABSENT:
        table.absent.append(event.public["seat"])
    elif kind == SEAT_RETURNED:
        table.absent.remove(event.public["seat"])
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


def to_act(ruleset: Ruleset, table: TableState) -> set[int]:
    return set() if table.over else ruleset.to_act(table.rules)


def bots_to_act(
    ruleset: Ruleset, table: TableState, levels: dict[int, str], takeover: str
) -> list[tuple[int, str]]:
    """(seat, level) of each bot-played seat to act, in seat order. ``levels`` are the
    seats' bot levels (bots from the start and players' seats taken over); a turn the
    others skipped is played at the ``takeover`` level (only the log says so)."""
    if table.over or not (levels or table.skipping):
        return []
    levels = {seat: takeover for seat in table.skipping} | levels
    return [(seat, levels[seat]) for seat in sorted(ruleset.to_act(table.rules)) if seat in levels]


def press_clocks(
    ruleset: Ruleset, table: TableState, now_ms: int, mover: int | None
) -> Event | None:
    """The clocks after a move: the next seats to act start running."""
    assert table.clock is not None
    state = clocks.press(
        table.clock,
        set() if table.over else ruleset.awaited(table.rules),
        set(table.departures),
        set(table.skipping),
        now_ms,
        mover,
    )
    return None if state is None else Event(CLOCK_PRESSED, {"at": now_ms, **state})
