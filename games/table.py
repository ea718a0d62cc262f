"""What the service adds around a ruleset, as pure functions (no Django).

The table state wraps the ruleset's state with the facts the service records itself:
who resigned, whether the game is finished or aborted. The write path and the auditor's
re-execution both go through ``start_events`` and ``command_events``, so the same seed and
commands give the same events byte for byte.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from games.rules.base import Event, IllegalCommand, Outcome, Ruleset, seeded_rng

GAME_STARTED = "table_started"
SEAT_RESIGNED = "seat_resigned"
GAME_ABORTED = "game_aborted"
GAME_FINISHED = "result_declared"
SERVICE_EVENTS = frozenset({GAME_STARTED, SEAT_RESIGNED, GAME_ABORTED, GAME_FINISHED})

# Commands the service itself answers (the rules engine never sees them).
RESIGN = "resign"
ABORT = "abort"
START = "start"


@dataclass
class TableState:
    rules: Any
    players: int
    resigned: list[int] = field(default_factory=list)
    finished: bool = False
    aborted: bool = False
    outcome: Outcome | None = None

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
) -> list[Event]:
    """``players`` are ``{"seat", "name", "bot"}`` in seat order."""
    started = Event(
        GAME_STARTED,
        {
            "ruleset": ruleset.key,
            "version": ruleset.version,
            "options": options,
            "players": [{"seat": p["seat"], "name": p["name"], "bot": p["bot"]} for p in players],
            "seed_commitment": commitment,
        },
    )
    return [started, *ruleset.setup(options, len(players), seeded_rng(seed, 1))]


def apply(ruleset: Ruleset, table: TableState | None, event: Event) -> TableState:
    """Fold one event (service or rules) into the table state; may mutate ``table``."""
    if event.type == GAME_STARTED:
        return TableState(rules=None, players=len(event.public["players"]))
    assert table is not None, "the first event of a game is table_started"
    if event.type == SEAT_RESIGNED:
        table.resigned.append(event.public["seat"])
    elif event.type == GAME_ABORTED:
        table.aborted = True
    elif event.type == GAME_FINISHED:
        table.finished = True
        table.outcome = Outcome.from_json(event.public["outcome"])
    else:
        table.rules = ruleset.evolve(table.rules, event)
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
    actor_is_staff: bool = False,
) -> list[Event]:
    """Decide a command and fold its events into ``table`` (mutated in place).

    Appends ``result_declared`` (with the outcome and the revealed seed) when the rules
    report the game over.
    """
    if table.over:
        raise IllegalCommand("game_over", "This game is over.")
    kind = command.get("type") if isinstance(command, dict) else None
    if kind == ABORT:
        if not actor_is_staff:
            raise IllegalCommand("forbidden", "Only a moderator can abort a game.")
        reason = str(command.get("reason", ""))[:500]
        events = [Event(GAME_ABORTED, {"reason": reason, "seed": seed})]
    elif kind == RESIGN:
        events = _resign(ruleset, table, seat, seed)
    else:
        if seat is None:
            raise IllegalCommand("not_seated", "You have no seat at this table.")
        # A resigned seat is played on by a bot; the service refuses its human.
        events = ruleset.decide(table.rules, seat, command, seeded_rng(seed, head_seq))
    for event in events:
        apply(ruleset, table, event)
    if not table.over:
        outcome = ruleset.outcome(table.rules)
        if outcome is not None:
            final = _rank_resigned_last(outcome, table.resigned)
            finished = Event(GAME_FINISHED, {"outcome": final.as_json(), "seed": seed})
            apply(ruleset, table, finished)
            events = [*events, finished]
    return events


def _resign(ruleset: Ruleset, table: TableState, seat: int | None, seed: str) -> list[Event]:
    """A resigned seat is played by a bot from now on and ranks last.

    DECISION (as on Board Game Arena): when only one seat has not resigned, the game
    ends at once; that seat wins and later resigners rank above earlier ones.
    """
    if seat is None:
        raise IllegalCommand("not_seated", "You have no seat at this table.")
    if seat in table.resigned:
        raise IllegalCommand("resigned", "You already resigned from this game.")
    events = [Event(SEAT_RESIGNED, {"seat": seat})]
    staying = [s for s in range(table.players) if s not in table.resigned and s != seat]
    if len(staying) <= 1:
        order = [*table.resigned, seat]
        ranking = [staying] if staying else []
        ranking += [[s] for s in reversed(order)]
        scores = {s: 0 for s in range(table.players)}
        if staying:
            scores[staying[0]] = 1
        outcome = Outcome(scores=scores, ranking=ranking, breakdown={})
        events.append(
            Event(GAME_FINISHED, {"outcome": outcome.as_json(), "seed": seed, "by": "resignation"})
        )
    return events


def _rank_resigned_last(outcome: Outcome, resigned: list[int]) -> Outcome:
    if not resigned:
        return outcome
    ranking = [[s for s in group if s not in resigned] for group in outcome.ranking]
    ranking = [g for g in ranking if g] + [[s] for s in reversed(resigned)]
    return Outcome(outcome.scores, ranking, outcome.breakdown)


def to_act(ruleset: Ruleset, table: TableState) -> set[int]:
    return set() if table.over else ruleset.to_act(table.rules)


def view(ruleset: Ruleset, table: TableState, seat: int | None) -> dict[str, Any]:
    """The viewer's view: the ruleset's view plus the service's own public facts."""
    if table.rules is None:
        return {}
    seen = ruleset.view(table.rules, seat)
    seen["resigned"] = list(table.resigned)
    seen["aborted"] = table.aborted
    if table.over:
        seen["to_act"] = []
        seen["finished"] = True
        if table.outcome is not None:
            seen["outcome"] = table.outcome.as_json()
    return seen


def dump(ruleset: Ruleset, table: TableState) -> dict[str, Any]:
    return {
        "rules": ruleset.dump(table.rules),
        "players": table.players,
        "resigned": table.resigned,
        "finished": table.finished,
        "aborted": table.aborted,
        "outcome": table.outcome.as_json() if table.outcome else None,
    }


def load(ruleset: Ruleset, data: dict[str, Any]) -> TableState:
    return TableState(
        rules=ruleset.load(data["rules"]),
        players=data["players"],
        resigned=list(data["resigned"]),
        finished=data["finished"],
        aborted=data["aborted"],
        outcome=Outcome.from_json(data["outcome"]) if data["outcome"] else None,
    )


def copy(ruleset: Ruleset, table: TableState) -> TableState:
    return TableState(
        rules=ruleset.copy_state(table.rules),
        players=table.players,
        resigned=list(table.resigned),
        finished=table.finished,
        aborted=table.aborted,
        outcome=table.outcome,
    )
