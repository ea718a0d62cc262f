"""The table state out: a viewer's view, and the snapshot form (dump, load, copy)."""

from __future__ import annotations

from typing import Any

from games import clocks
from games.rules.base import Outcome, Ruleset
from games.table.state import TableState


def view(
    ruleset: Ruleset, table: TableState, seat: int | None, *, reveal: bool = False
) -> dict[str, Any]:
    """The viewer's view: the ruleset's view plus the service's own public facts.

    ``reveal`` (the read path asks it once the game is over): every seat's secrets too,
    under ``revealed`` by seat, whoever is looking."""
    if table.rules is None:
        return {}
    seen = ruleset.view(table.rules, seat)
    if reveal:
        seen["revealed"] = {str(s): part for s, part in ruleset.secrets(table.rules).items()}
    seen["resigned"] = list(table.resigned)
    seen["expelled"] = list(table.expelled)
    seen["kicked"] = list(table.kicked)
    seen["skipping"] = list(table.skipping)
    if table.absent:
        seen["absent"] = list(table.absent)
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
    if table.absent:
        data["absent"] = table.absent
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
        absent=list(data.get("absent", [])),
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
        absent=list(table.absent),
    )
