"""The SHA-256 hash chain over a game's event records (pure; no Django).

A *record* is the stored form of one event, a plain dict with the keys in ``FIELDS``;
exports hold the same dicts, so an export can be verified without a database.
"""

from __future__ import annotations

import hashlib
import json
from typing import Any

GENESIS = "0" * 64
FIELDS = (
    "game",
    "seq",
    "type",
    "public",
    "private",
    "actor",
    "command_id",
    "command",
    "recorded_at",
    "prev_hash",
)


def canonical(value: Any) -> bytes:
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode()


def record_hash(record: dict[str, Any]) -> str:
    return hashlib.sha256(canonical({k: record[k] for k in FIELDS})).hexdigest()


def seed_commitment(seed: str) -> str:
    return hashlib.sha256(seed.encode()).hexdigest()


def first_broken_link(records: list[dict[str, Any]]) -> tuple[int, str] | None:
    """(seq, reason) of the first record that breaks the chain, or None when intact."""
    prev = GENESIS
    for expected_seq, record in enumerate(records, start=1):
        if record["seq"] != expected_seq:
            return record["seq"], f"expected seq {expected_seq}"
        if record["prev_hash"] != prev:
            return record["seq"], "prev_hash does not match the previous event's hash"
        if record_hash(record) != record["hash"]:
            return record["seq"], "content does not match its hash"
        prev = record["hash"]
    return None
