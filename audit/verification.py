"""Verifying a game's history from its records alone (no database needed).

Three checks, as an auditor would run them:
1. the hash chain is intact, and every field outside it (the game's status, seed,
   outcome, ruleset, options...) agrees with the events the chain covers;
2. folding the events gives the recorded state (each snapshot, the final snapshot of a
   game that is over, and the final outcome);
3. for a game that is over, the revealed seed matches the commitment published in
   ``table_started`` and re-running setup and every recorded command with it, at its
   recorded time, yields the recorded events exactly (so the clocks, and every timeout,
   follow from the recorded times too; audit.reexecution);
4. every checkpoint the server signed (games/storage/signing.py) is valid under a trusted key and
   names an event of the log with the hash signed, and a game that is over is signed at
   its end: a log cut short, or rewritten with every hash recomputed, fails here.

Everything here is pure: ``verify_document`` takes an export (``audit.exports``) and the
stored snapshots, so worker processes of ``audit_game --all`` need no database.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from audit.reexecution import reexecute
from games import table as tables
from games.rules import get_ruleset
from games.rules.base import Event
from games.storage import signing
from games.storage.chain import FIELDS, canonical, first_broken_link

EXPORT_FORMAT = "kingdom-game-export/2"
# Every top-level field of an export; each is checked against the hash-chained events.
EXPORT_FIELDS = (
    "format",
    "game",
    "ruleset",
    "ruleset_version",
    "options",
    "status",
    "seed_commitment",
    "seed",
    "outcome",
    "events",
)
# The signed checkpoints and the public keys that signed them: checked by signature.
SIGNATURE_FIELDS = ("checkpoints", "signing_keys")
RECORD_FIELDS = frozenset((*FIELDS, "hash"))
ENDINGS = {tables.RESULT_DECLARED: "finished", tables.GAME_ABORTED: "aborted"}


@dataclass
class Verdict:
    game: str
    chain_intact: bool = True
    # The fields outside the chain (status, seed, outcome, options...) agree with it.
    fields_match: bool = True
    replay_matches: bool = True
    # None: no snapshot at the end of a game that is over (games stored before the
    # final snapshot was written, and exports, which carry no snapshots).
    final_state_matches: bool | None = None
    reexecution_matches: bool | None = None  # None: the game is not over, no seed yet
    # None: nothing signed yet (a game in progress before its first snapshot).
    signatures_valid: bool | None = None
    signed_by: list[str] = field(default_factory=list)  # the key ids of the checkpoints
    problems: list[str] = field(default_factory=list)

    @property
    def passed(self) -> bool:
        return (
            self.chain_intact
            and self.fields_match
            and self.replay_matches
            and self.final_state_matches is not False
            and self.reexecution_matches is not False
            and self.signatures_valid is not False
        )

    def as_json(self) -> dict[str, Any]:
        return {
            "game": self.game,
            "passed": self.passed,
            "chain_intact": self.chain_intact,
            "fields_match": self.fields_match,
            "replay_matches": self.replay_matches,
            "final_state_matches": self.final_state_matches,
            "reexecution_matches": self.reexecution_matches,
            "signatures_valid": self.signatures_valid,
            "signed_by": self.signed_by,
            "problems": self.problems,
        }

    def field_differs(self, problem: str) -> None:
        self.fields_match = False
        self.problems.append(problem)


def _same(a: Any, b: Any) -> bool:
    """Equal as JSON text: ``1`` and ``true``, or ``1`` and ``1.0``, are different bytes."""
    return canonical(json.loads(json.dumps(a))) == canonical(json.loads(json.dumps(b)))


def _brief(value: Any) -> str:
    text = json.dumps(value, ensure_ascii=False)
    return text if len(text) <= 60 else text[:57] + "..."


def _event(record: dict[str, Any]) -> Event:
    return Event(
        record["type"], record["public"], {int(s): d for s, d in record["private"].items()}
    )


def verify_document(
    document: Any,
    *,
    snapshots: dict[int, dict[str, Any]] | None = None,
    head_seq: int | None = None,
    keys: dict[str, str] | None = None,
    pinned: set[str] | None = None,
) -> Verdict:
    """Verify an export (``audit.exports.export_game``): any changed byte fails.

    ``snapshots`` (seq -> state) and ``head_seq`` come with an audit of a stored game.
    ``keys`` (key id -> public key) are the signing keys trusted; without them, the
    export's own keys whose fingerprint is their id (only ``pinned`` ids, if given).
    A malformed document gives a failing verdict with a reason, never an exception.
    """
    game = document.get("game") if isinstance(document, dict) else None
    verdict = Verdict(game=game if isinstance(game, str) else "")
    try:
        records = _well_formed(document, verdict)
        if records is None:
            return verdict
        ending = next((r for r in records if r["type"] in ENDINGS), None)
        seed = document.get("seed") if ending is not None else None
        # The log's own ruleset (hash-covered) drives the replay, not the top-level copy.
        started = records[0]["public"] if records[0]["type"] == tables.TABLE_STARTED else None
        verify(
            records,
            ruleset_key=(started if isinstance(started, dict) else document).get("ruleset"),
            seed=seed if isinstance(seed, str) else None,
            snapshots=snapshots,
            outcome=document.get("outcome") if _finished(ending) else None,
            verdict=verdict,
        )
        if ending is not None and not isinstance(seed, str):
            verdict.reexecution_matches = False  # a game that is over must be re-executed
        if head_seq is not None and records[-1]["seq"] != head_seq:
            verdict.replay_matches = False
            verdict.problems.append(f"head_seq {head_seq} but the log ends at {records[-1]['seq']}")
        _compare_fields(document, records, ending, verdict)
        if all(name in document for name in SIGNATURE_FIELDS):  # else named above
            signed = signing.check_export(document, records, ending is not None, keys, pinned)
            verdict.signatures_valid, verdict.signed_by, wrong = signed
            verdict.problems.extend(wrong)
    except Exception as exc:  # a hand-edited file may break any assumption
        verdict.fields_match = False
        verdict.problems.append(f"the export cannot be verified: {exc!r}")
    return verdict


def _finished(ending: dict[str, Any] | None) -> bool:
    return ending is not None and ending["type"] == tables.RESULT_DECLARED


def _well_formed(document: Any, verdict: Verdict) -> list[dict[str, Any]] | None:
    """The event records, or None (with the reason) when there is nothing to verify."""
    if not isinstance(document, dict):
        verdict.field_differs("the export is not a JSON object")
        return None
    for name in EXPORT_FIELDS:
        if name not in document:
            verdict.field_differs(f"missing top-level field '{name}'")
    for name in SIGNATURE_FIELDS:
        if name not in document:
            verdict.signatures_valid = False
            verdict.problems.append(f"missing top-level field '{name}'")
    for name in sorted(set(document) - set(EXPORT_FIELDS) - set(SIGNATURE_FIELDS)):
        verdict.field_differs(f"unexpected top-level field '{name}'")
    records = document.get("events")
    if records is None:
        return None
    if not isinstance(records, list) or not records:
        verdict.field_differs("top-level field 'events' holds no events: nothing to verify")
        return None
    for position, record in enumerate(records, start=1):
        if not isinstance(record, dict):
            verdict.chain_intact = False
            verdict.problems.append(f"event {position} is not a JSON object")
            return None
        # The hash covers only RECORD_FIELDS: an added key would go unnoticed.
        wrong = sorted(RECORD_FIELDS ^ set(record))
        if wrong:
            verdict.chain_intact = False
            verdict.problems.append(
                f"event {position} has missing or unexpected fields: {', '.join(wrong)}"
            )
            return None
    return records


def _compare_fields(
    document: dict[str, Any],
    records: list[dict[str, Any]],
    ending: dict[str, Any] | None,
    verdict: Verdict,
) -> None:
    """Each top-level field against the hash-chained events it must agree with."""
    first = records[0]
    if first["type"] != tables.TABLE_STARTED:
        verdict.field_differs(f"event {first['seq']} is {first['type']}, not table_started")
        return
    started = first["public"]
    if not isinstance(started, dict):
        verdict.field_differs(f"event {first['seq']} has no public facts to compare with")
        return
    expected = {
        "format": (EXPORT_FORMAT, "the export format"),
        "game": (first["game"], f"event {first['seq']}"),
        "ruleset": (started.get("ruleset"), f"event {first['seq']}"),
        "ruleset_version": (started.get("version"), f"event {first['seq']}"),
        "options": (started.get("options"), f"event {first['seq']}"),
        "seed_commitment": (started.get("seed_commitment"), f"event {first['seq']}"),
        "status": ("active", "the log (not ended)"),
        "outcome": (None, "the log (no result)"),
    }
    if ending is not None:
        at = f"event {ending['seq']} ({ending['type']})"
        expected["status"] = (ENDINGS[ending["type"]], at)
        expected["outcome"] = (ending["public"].get("outcome"), at)
    for name, (value, source) in expected.items():
        if name in document and not _same(document[name], value):
            verdict.field_differs(
                f"top-level field '{name}' is {_brief(document[name])} "
                f"but {source} says {_brief(value)}"
            )
    stray = next((r for r in records if r["game"] != document.get("game")), None)
    if stray is not None and "game" in document:
        verdict.field_differs(
            f"event {stray['seq']} belongs to game {_brief(stray['game'])}, "
            f"not {_brief(document['game'])}"
        )
    seed = document.get("seed")
    if ending is None:
        if seed is not None:
            verdict.field_differs("top-level field 'seed' is set but the game is not over")
    elif not isinstance(seed, str):
        verdict.field_differs(
            f"top-level field 'seed' is {_brief(seed)}: a game that is over "
            f"(event {ending['seq']}) must reveal its seed"
        )
    elif seed != ending["public"].get("seed"):
        verdict.field_differs(
            f"top-level field 'seed' differs from the seed revealed at event {ending['seq']}"
        )


def verify(
    records: list[dict[str, Any]],
    *,
    ruleset_key: str | None,
    seed: str | None,
    snapshots: dict[int, dict[str, Any]] | None = None,
    outcome: dict[str, Any] | None = None,
    game: str = "",
    verdict: Verdict | None = None,
) -> Verdict:
    """Chain, replay (against ``snapshots`` and ``outcome``) and, given the seed,
    re-execution of the event records alone."""
    verdict = verdict or Verdict(game=game)
    broken = first_broken_link(records)
    if broken:
        verdict.chain_intact = False
        verdict.problems.append(f"hash chain broken at event {broken[0]}: {broken[1]}")
    try:
        rules = get_ruleset(ruleset_key or "")  # no key is as unknown as an empty one
    except KeyError:
        verdict.replay_matches = False
        verdict.problems.append(f"unknown ruleset {_brief(ruleset_key)}")
        return verdict
    table = None
    snapshots = snapshots or {}
    last_seq = records[-1]["seq"] if records else None
    try:
        for record in records:
            table = tables.apply(rules, table, _event(record))
            snap = snapshots.get(record["seq"])
            if snap is None:
                continue
            same = _same(tables.dump(rules, table), snap)
            if record["seq"] == last_seq and table.over:
                # The state the game ended in, written when it ended (games.storage).
                verdict.final_state_matches = same
                if not same:
                    verdict.problems.append(
                        f"the replayed final state differs from the final snapshot "
                        f"at event {record['seq']}"
                    )
            elif not same:
                verdict.problems.append(f"replay differs from the snapshot at {record['seq']}")
            if not same:
                verdict.replay_matches = False
    except Exception as exc:  # a tampered log may not even fold
        verdict.replay_matches = False
        verdict.problems.append(f"replay failed at event {record['seq']}: {exc!r}")
        table = None
    if table is not None and outcome is not None:
        final = table.outcome.as_json() if table.outcome else None
        if not _same(final, outcome):
            verdict.replay_matches = False
            verdict.problems.append("replayed outcome differs from the recorded outcome")
    if seed is not None:
        verdict.reexecution_matches = reexecute(rules, records, seed, verdict.problems)
    return verdict


def verify_case(case: dict[str, Any]) -> dict[str, Any]:
    """One stored game's audit from its export, snapshots and head seq, as JSON.

    A top-level function of this Django-free module, so ``audit_game --all`` can run it
    in worker processes that never open a database connection.
    """
    return verify_document(
        case["document"],
        snapshots=case["snapshots"],
        head_seq=case["head_seq"],
        keys=case["keys"],
    ).as_json()
