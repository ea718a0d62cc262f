"""Re-execution of a game that is over (check 3 of audit.verification): with the revealed
seed, re-running setup and every recorded command, at its recorded time, must give the
recorded events byte for byte (so the clocks, and every timeout, follow from the
recorded times too). Pure, like the rest of the verification: no database.
"""

from __future__ import annotations

import json
from datetime import datetime
from typing import Any

from games import clocks
from games import table as tables
from games.rules.base import Event, IllegalCommand, Ruleset
from games.storage.chain import canonical, seed_commitment


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


def reexecute(
    rules: Ruleset, records: list[dict[str, Any]], seed: str, problems: list[str]
) -> bool:
    """Whether re-running the log with ``seed`` gives its events; else why not, in
    ``problems``."""
    batches = _batches(records)
    if not batches or batches[0][0]["type"] != tables.TABLE_STARTED:
        problems.append("the log does not begin with table_started")
        return False
    started = batches[0][0]["public"]
    if seed_commitment(seed) != started.get("seed_commitment"):
        problems.append("the revealed seed does not match the published commitment")
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
                # The first batch starts the table (checked above): later ones have one.
                events = tables.command_events(
                    rules,
                    table,  # type: ignore[arg-type]
                    seed,
                    head,
                    seat,
                    command,
                    actor_kind=kind,
                    now_ms=now_ms,
                )
        except (IllegalCommand, KeyError, TypeError, ValueError, AssertionError) as exc:
            problems.append(f"command at event {batch[0]['seq']} refused: {exc!r}")
            return False
        produced = [_stored(e) for e in events]
        recorded = [{k: r[k] for k in ("type", "public", "private")} for r in batch]
        if canonical(produced) != canonical(recorded):
            problems.append(
                f"re-running the command at event {batch[0]['seq']} gives different events"
            )
            return False
        head += len(batch)
    return True
