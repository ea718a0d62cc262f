"""Time controls and the players' clocks, as pure functions (no Django).

A table's time control is a service setting, not a ruleset option:

- ``{"kind": "none"}`` — friendly table, no clocks (the default);
- ``{"kind": "realtime", "minutes": M, "increment_seconds": I}`` — each player has a bank
  of M minutes that runs while the player is to act; I seconds are added after each of
  the player's moves (Fischer increment);
- ``{"kind": "turn", "hours": H}`` — each turn must be played within H hours.

The clocks live in the log: the game's ``clock_pressed`` events hold the whole clock
state (banks, which clocks run since when, who is out of time), stamped with the time of
the command that pressed them — the command's ``recorded_at``, which the hash chain
covers. Re-executing a command at its recorded time therefore reproduces the clock events,
and a ``clock_expired`` recorded before the clock had really run out is refused by the
auditor. Times are integer milliseconds since the Unix epoch.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import Any, TypeGuard

from games.rules.base import IllegalCommand

NONE, REALTIME, TURN = "none", "realtime", "turn"
KINDS = (NONE, REALTIME, TURN)
# Limits the lobby form offers (GET /api/time-controls/ returns them).
LIMITS: dict[str, dict[str, dict[str, float]]] = {
    REALTIME: {
        "minutes": {"min": 1, "max": 180, "default": 10},
        "increment_seconds": {"min": 0, "max": 300, "default": 5},
    },
    TURN: {"hours": {"min": 1, "max": 720, "default": 24}},
}
_EPOCH = datetime(1970, 1, 1, tzinfo=UTC)


def ms_of(moment: datetime) -> int:
    """Exact integer milliseconds since the epoch (no float rounding)."""
    return (moment - _EPOCH) // timedelta(milliseconds=1)


def moment_of(ms: int) -> datetime:
    return _EPOCH + timedelta(milliseconds=ms)


def clean_time_control(value: Any) -> dict[str, Any]:
    """The normalised time control, or IllegalCommand('bad_time_control', ...)."""
    if value in (None, "", NONE):
        return {"kind": NONE}
    if not isinstance(value, dict):
        raise IllegalCommand("bad_time_control", "A time control is a JSON object with a kind.")
    kind = value.get("kind", NONE)
    if kind not in KINDS:
        raise IllegalCommand(
            "bad_time_control", f"Time control kind must be one of {', '.join(KINDS)}."
        )
    if kind == NONE:
        return {"kind": NONE}
    limits = LIMITS[kind]
    unknown = sorted(set(value) - {"kind", *limits})
    if unknown:
        raise IllegalCommand("bad_time_control", f"Unknown time control field: {unknown[0]}.")
    cleaned: dict[str, Any] = {"kind": kind}
    for name, bounds in limits.items():
        number = value.get(name, bounds["default"])
        if not isinstance(number, int) or isinstance(number, bool):
            raise IllegalCommand("bad_time_control", f"{name} must be a whole number.")
        if not bounds["min"] <= number <= bounds["max"]:
            raise IllegalCommand(
                "bad_time_control",
                f"{name} must be between {bounds['min']} and {bounds['max']}.",
            )
        cleaned[name] = number
    return cleaned


def is_timed(control: dict[str, Any] | None) -> TypeGuard[dict[str, Any]]:
    return control is not None and bool(control) and control.get("kind", NONE) != NONE


@dataclass
class Clock:
    """The clocks of a timed game. ``banks`` (realtime) hold the time left when each
    clock last stopped; ``running`` maps a seat to the time its clock started."""

    control: dict[str, Any]
    unclocked: set[int] = field(default_factory=set)  # seats played by bots from the start
    banks: dict[int, int] = field(default_factory=dict)
    running: dict[int, int] = field(default_factory=dict)
    timed_out: set[int] = field(default_factory=set)

    @property
    def realtime(self) -> bool:
        return self.control["kind"] == REALTIME

    @property
    def increment_ms(self) -> int:
        return int(self.control.get("increment_seconds", 0)) * 1000

    @property
    def per_move_ms(self) -> int:
        return int(self.control.get("hours", 0)) * 3_600_000

    def deadline(self, seat: int) -> int | None:
        """When the seat's running clock runs out (ms), or None if it is not running."""
        since = self.running.get(seat)
        if since is None:
            return None
        return since + (self.banks.get(seat, 0) if self.realtime else self.per_move_ms)

    def expired(self, seat: int, now_ms: int) -> bool:
        deadline = self.deadline(seat)
        return deadline is not None and now_ms >= deadline

    def next_deadline(self) -> int | None:
        deadlines = [d for d in (self.deadline(s) for s in self.running) if d is not None]
        return min(deadlines) if deadlines else None

    def state_json(self) -> dict[str, Any]:
        """The clock state as ``clock_pressed`` records it (and dump stores it)."""
        state: dict[str, Any] = {
            "running": {str(s): t for s, t in sorted(self.running.items())},
            "timed_out": sorted(self.timed_out),
        }
        if self.realtime:
            state["banks"] = {str(s): t for s, t in sorted(self.banks.items())}
        return state

    def set_state(self, state: dict[str, Any]) -> None:
        self.running = {int(s): t for s, t in state["running"].items()}
        self.timed_out = set(state["timed_out"])
        if "banks" in state:
            self.banks = {int(s): t for s, t in state["banks"].items()}

    def dump(self) -> dict[str, Any]:
        return {"control": self.control, "unclocked": sorted(self.unclocked), **self.state_json()}

    @classmethod
    def load(cls, data: dict[str, Any]) -> Clock:
        clock = cls(control=dict(data["control"]), unclocked=set(data["unclocked"]))
        clock.set_state(data)
        return clock

    def view(self) -> dict[str, Any]:
        """What every viewer sees: the state plus each running clock's deadline."""
        return {
            "control": dict(self.control),
            **self.state_json(),
            "deadlines": {str(s): self.deadline(s) for s in sorted(self.running)},
        }


def start_clock(control: dict[str, Any], players: list[dict[str, Any]]) -> Clock:
    """A stopped clock for each seat played by a person (bots are never clocked)."""
    unclocked = {p["seat"] for p in players if p.get("bot")}
    clock = Clock(control=dict(control), unclocked=unclocked)
    if clock.realtime:
        bank = int(control["minutes"]) * 60_000
        clock.banks = {p["seat"]: bank for p in players if p["seat"] not in unclocked}
    return clock


def press(
    clock: Clock,
    to_act: set[int],
    departed: set[int],
    skipping: set[int],
    now_ms: int,
    mover: int | None,
) -> dict[str, Any] | None:
    """The new clock state after a command at ``now_ms``, or None when nothing changed.

    ``mover`` is the seat whose player (not a bot) made the command: a player out of time
    who moves again is back in the game; the increment is added when the mover's turn
    ends. A clock runs while its seat is to act, unless a bot plays the seat, the player
    is out of time, or the others had the turn skipped.
    """
    before = clock.state_json()
    was_running = dict(clock.running)
    came_back = mover is not None and mover in clock.timed_out
    timed_out = set(clock.timed_out) - ({mover} if came_back else set())
    should_run = to_act - clock.unclocked - departed - timed_out - skipping
    banks = dict(clock.banks)
    running = {s: t for s, t in was_running.items() if s in should_run}
    for seat, since in was_running.items():
        if seat not in should_run and clock.realtime and seat in banks:
            banks[seat] = max(0, banks[seat] - max(0, now_ms - since))
    if (
        clock.realtime
        and mover in banks
        and mover not in should_run
        and (mover in was_running or came_back)
    ):
        banks[mover] += clock.increment_ms
    for seat in sorted(should_run - set(running)):
        running[seat] = now_ms
    after = Clock(clock.control, clock.unclocked, banks, running, timed_out).state_json()
    return after if after != before else None
