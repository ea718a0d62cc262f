"""Signed checkpoints of game logs: the server's Ed25519 signature of (game, seq, head hash).

A hash chain shows that a log was not changed *inside*; it cannot show that the whole log
was not rewritten (every hash recomputed) or that its tail was not cut. A checkpoint
can: only the holder of the private key can sign one, and anyone holding the published
public key (``GET /api/keys/``) checks it offline. The server signs at every snapshot
and at the end of every game (games/storage/log.py), and exports carry the signatures.

The key id is the fingerprint of the public key, so a verifier who pinned a key id may
take the public key from the export itself: a swapped key has another fingerprint. The
key id is inside every signed message, so a new key (rotation) never makes an old
signature ambiguous; retired public keys stay published (``SIGNING_RETIRED_KEYS``).

The checking half (``checkpoint_problems``, ``fingerprint``, ``verify_signature``) is
pure, for the Django-free audit (audit/verification.py); the signing half reads the settings.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import json
import os
from functools import lru_cache
from pathlib import Path
from typing import Any

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric.ed25519 import (
    Ed25519PrivateKey,
    Ed25519PublicKey,
)

from games.storage.chain import canonical
from infra.security import parse_private_key

ALGORITHM = "ed25519"
MESSAGE_FORMAT = "kingdom-checkpoint/1"
CHECKPOINT_FIELDS = frozenset(("seq", "hash", "key_id", "signature"))


# ---- pure: messages, fingerprints, verification ----------------------------------------
def message(game: str, seq: int, head_hash: str, key_id: str) -> bytes:
    """The bytes signed: canonical JSON, with the format and the key id inside."""
    return canonical(
        {"format": MESSAGE_FORMAT, "game": game, "seq": seq, "hash": head_hash, "key_id": key_id}
    )


def raw_public(key: Ed25519PublicKey) -> bytes:
    return key.public_bytes(serialization.Encoding.Raw, serialization.PublicFormat.Raw)


def fingerprint(public_b64: str) -> str:
    """The key id of a public key: the first 32 hex digits of SHA-256 of its raw bytes."""
    return hashlib.sha256(base64.b64decode(public_b64, validate=True)).hexdigest()[:32]


def verify_signature(public_b64: str, signature_b64: str, signed: bytes) -> bool:
    try:
        key = Ed25519PublicKey.from_public_bytes(base64.b64decode(public_b64, validate=True))
        key.verify(base64.b64decode(signature_b64, validate=True), signed)
    except (InvalidSignature, ValueError, TypeError, binascii.Error):
        return False
    return True


def checkpoint_problems(
    game: str,
    records: list[dict[str, Any]],
    checkpoints: Any,
    keys: dict[str, str],
    *,
    ended: bool,
) -> list[str]:
    """What is wrong with the signed checkpoints of a log (empty: nothing).

    ``keys`` maps key id -> base64 public key: the keys the verifier trusts. Each
    checkpoint must carry a valid signature by one of them and name an event of the log
    with the hash it signed (a log that ends before a checkpoint was cut); a game that is
    over must be signed at its last event (else a rewritten game could drop them all).
    """
    if not isinstance(checkpoints, list):
        return ["top-level field 'checkpoints' is not a list"]
    problems: list[str] = []
    hashes = {r["seq"]: r["hash"] for r in records}
    last = records[-1]["seq"]
    signed_end = False
    for position, point in enumerate(checkpoints, start=1):
        if not isinstance(point, dict) or set(point) != CHECKPOINT_FIELDS:
            problems.append(f"checkpoint {position} has missing or unexpected fields")
            continue
        seq, key_id = point["seq"], point["key_id"]
        public = keys.get(key_id) if isinstance(key_id, str) else None
        if public is None:
            problems.append(f"the checkpoint at event {seq} is signed by an unknown key {key_id}")
            continue
        signed = message(game, seq, point["hash"], key_id)
        if not isinstance(point["signature"], str) or not verify_signature(
            public, point["signature"], signed
        ):
            problems.append(f"the signature of the checkpoint at event {seq} is not valid")
            continue
        if seq not in hashes:
            problems.append(
                f"the server signed event {seq} but the log ends at event {last}: "
                "events were cut from the log"
            )
        elif hashes[seq] != point["hash"]:
            problems.append(f"event {seq} differs from the one the server signed")
        else:
            signed_end = signed_end or seq == last
    if ended and not signed_end:
        problems.append(f"the game ended at event {last} but no valid signature covers it")
    return problems


def check_export(
    document: dict[str, Any],
    records: list[dict[str, Any]],
    ended: bool,
    keys: dict[str, str] | None,
    pinned: set[str] | None,
) -> tuple[bool | None, list[str], list[str]]:
    """(valid, the key ids named, problems) of an export's checkpoints. ``valid`` is None
    when nothing was signed yet (a game in progress before its first snapshot)."""
    checkpoints = document["checkpoints"]
    if keys is None:
        keys = trusted_keys(document["signing_keys"], pinned)
    problems = checkpoint_problems(records[0]["game"], records, checkpoints, keys, ended=ended)
    named = sorted(
        {
            p["key_id"]
            for p in checkpoints
            if isinstance(p, dict) and isinstance(p.get("key_id"), str)
        }
        if isinstance(checkpoints, list)
        else set()
    )
    if problems:
        return False, named, problems
    return (True if checkpoints else None), named, []


def trusted_keys(embedded: Any, pinned: set[str] | None = None) -> dict[str, str]:
    """The keys an export carries whose fingerprint is their key id (and, given
    ``pinned``, only those ids): a key swapped in under another id is dropped."""
    if not isinstance(embedded, dict):
        return {}
    trusted = {}
    for key_id, public in embedded.items():
        try:
            genuine = isinstance(public, str) and fingerprint(public) == key_id
        except (ValueError, binascii.Error):
            genuine = False
        if genuine and (pinned is None or key_id in pinned):
            trusted[key_id] = public
    return trusted


def keys_from_text(text: str) -> dict[str, str]:
    """Key id -> public key from the JSON of ``GET /api/keys/``, or from one base64
    public key. Raises ValueError when a key id is not its key's fingerprint."""
    text = text.strip()
    if not text.startswith("{"):
        return {fingerprint(text): text}
    keys = {}
    for entry in json.loads(text)["keys"]:
        if fingerprint(entry["public_key"]) != entry["key_id"]:
            raise ValueError(f"key {entry['key_id']} is not the fingerprint of its public key")
        keys[entry["key_id"]] = entry["public_key"]
    return keys


# ---- the server's key (settings) ------------------------------------------------------
@lru_cache(maxsize=4)
def _load(configured: str, path: str) -> Ed25519PrivateKey:
    if configured:
        return parse_private_key(configured)
    file = Path(path)
    try:
        # Created once, readable by its owner only; O_EXCL: of two processes starting
        # together, one writes the key and the other reads it.
        descriptor = os.open(file, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError:
        return parse_private_key(file.read_text())
    raw = Ed25519PrivateKey.generate().private_bytes(
        serialization.Encoding.Raw,
        serialization.PrivateFormat.Raw,
        serialization.NoEncryption(),
    )
    with os.fdopen(descriptor, "w") as handle:
        handle.write(base64.b64encode(raw).decode() + "\n")
    return Ed25519PrivateKey.from_private_bytes(raw)


def server_key() -> Ed25519PrivateKey:
    """``SIGNING_KEY`` (the deployment's secret), else, in the embedded mode only, the
    key kept in ``SIGNING_KEY_FILE`` (made on first use). With DEBUG off the settings
    refuse to start without ``SIGNING_KEY``, so no process makes a key of its own."""
    from django.conf import settings

    return _load(settings.SIGNING_KEY, str(settings.SIGNING_KEY_FILE))


def public_b64(key: Ed25519PrivateKey) -> str:
    return base64.b64encode(raw_public(key.public_key())).decode()


def published_keys() -> dict[str, str]:
    """Key id -> base64 public key: the current key and any retired ones still valid."""
    from django.conf import settings

    keys = [public_b64(server_key()), *settings.SIGNING_RETIRED_KEYS]
    return {fingerprint(k): k for k in keys}


def sign_checkpoint(game: str, seq: int, head_hash: str) -> dict[str, Any]:
    """A checkpoint of event ``seq`` of ``game`` whose hash is ``head_hash``."""
    key = server_key()
    key_id = fingerprint(public_b64(key))
    signature = key.sign(message(game, seq, head_hash, key_id))
    return {
        "seq": seq,
        "hash": head_hash,
        "key_id": key_id,
        "signature": base64.b64encode(signature).decode(),
    }
