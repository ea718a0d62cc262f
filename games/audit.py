"""Verifying a game's history from its records alone (no database needed).

Three checks, as an auditor would run them:
1. the hash chain is intact;
2. folding the events gives the recorded state (each snapshot, and the final outcome);
3. for a game that is over, re-running setup and every recorded command with the revealed
   seed, at its recorded time, yields the recorded events exactly (so the clocks, and
   every timeout, follow from the recorded times too).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from games import clocks
from games import table as tables
from games.chain import first_broken_link, seed_commitment
from games.rules import get_ruleset
from games.rules.base import Event, IllegalCommand


@dataclass
class Verdict:
    game: str
    chain_intact: bool = True
    replay_matches: bool = True
    reexecution_matches: bool | None = None  # None: the seed is not revealed yet
    problems: list[str] = field(default_factory=list)

    @property
    def passed(self) -> bool:
        return self.chain_intact and self.replay_matches and self.reexecution_matches is not False

    def as_json(self) -> dict[str, Any]:
        return {
            "game": self.game,
            "passed": self.passed,
            "chain_intact": self.chain_intact,
            "replay_matches": self.replay_matches,
            "reexecution_matches": self.reexecution_matches,
            "problems": self.problems,
        }


def _event(record: dict[str, Any]) -> Event:
    return Event(
        record["type"], record["public"], {int(s): d for s, d in record["private"].items()}
    )


def _stored(event: Event) -> dict[str, Any]:
    return json.loads(
        json.dumps(
            {
                "type": event.type,
                "public": event.public,
                "private": {str(s): d for s, d in event.private.items()},
            }
        )
    )


def _batches(records: list[dict[str, Any]]) -> list[list[dict[str, Any]]]:
    batches: list[list[dict[str, Any]]] = []
    for record in records:
        if record["command"] is not None or not batches:
            batches.append([record])
        else:
            batches[-1].append(record)
    return batches


def verify(
    records: list[dict[str, Any]],
    *,
    ruleset_key: str,
    seed: str | None,
    snapshots: dict[int, dict[str, Any]] | None = None,
    outcome: dict[str, Any] | None = None,
    game: str = "",
) -> Verdict:
    verdict = Verdict(game=game)
    broken = first_broken_link(records)
    if broken:
        verdict.chain_intact = False
        verdict.problems.append(f"hash chain broken at event {broken[0]}: {broken[1]}")
    rules = get_ruleset(ruleset_key)
    table = None
    snapshots = snapshots or {}
    try:
        for record in records:
            table = tables.apply(rules, table, _event(record))
            snap = snapshots.get(record["seq"])
            if snap is not None and json.loads(json.dumps(tables.dump(rules, table))) != snap:
                verdict.replay_matches = False
                verdict.problems.append(f"replay differs from the snapshot at {record['seq']}")
    except Exception as exc:  # a tampered log may not even fold
        verdict.replay_matches = False
        verdict.problems.append(f"replay failed at event {record['seq']}: {exc!r}")
        table = None
    if table is not None and outcome is not None:
        final = table.outcome.as_json() if table.outcome else None
        if json.loads(json.dumps(final)) != outcome:
            verdict.replay_matches = False
            verdict.problems.append("replayed outcome differs from the recorded outcome")
    if seed is not None:
        verdict.reexecution_matches = _reexecute(rules, records, seed, verdict)
    return verdict


def _reexecute(rules, records, seed: str, verdict: Verdict) -> bool:
    batches = _batches(records)
    if not batches or batches[0][0]["type"] != tables.GAME_STARTED:
        verdict.problems.append("the log does not begin with table_started")
        return False
    started = batches[0][0]["public"]
    if seed_commitment(seed) != started.get("seed_commitment"):
        verdict.problems.append("the revealed seed does not match the published commitment")
        return False
    table = None
    head = 0
    for batch in batches:
        command, actor = batch[0]["command"] or {}, batch[0]["actor"]
        try:
            now_ms = clocks.ms_of(datetime.fromisoformat(batch[0]["recorded_at"]))
            if command.get("type") == tables.START:
                players = tables.seat_players(command["joined"], seed)
                events = tables.start_events(
                    rules,
                    started["options"],
                    players,
                    seed,
                    started["seed_commitment"],
                    time_control=command.get("time_control"),
                    now_ms=now_ms,
                )
                table = tables.fold(rules, events)
            else:
                kind, _, who = actor.partition(":")
                seat = int(who) if kind in {"seat", "bot"} else None
                events = tables.command_events(
                    rules, table, seed, head, seat, command, actor_kind=kind, now_ms=now_ms
                )
        except (IllegalCommand, KeyError, TypeError, ValueError, AssertionError) as exc:
            verdict.problems.append(f"command at event {batch[0]['seq']} refused: {exc!r}")
            return False
        produced = [_stored(e) for e in events]
        recorded = [{k: r[k] for k in ("type", "public", "private")} for r in batch]
        if produced != recorded:
            verdict.problems.append(
                f"re-running the command at event {batch[0]['seq']} gives different events"
            )
            return False
        head += len(batch)
    return True
