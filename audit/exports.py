"""A game's whole history as one JSON document, and its verification without a database
(the audit of a game in the database is audit.stored)."""

from __future__ import annotations

from typing import Any

from audit.verification import EXPORT_FORMAT, Verdict, verify_document
from games import storage
from games.models import Game, GameEvent, Snapshot
from games.storage import signing

FORMAT = EXPORT_FORMAT


def export_game(game: Game) -> dict[str, Any]:
    """The ruleset version, the commands, the events, the hashes, (once over) the seed,
    and the server's signed checkpoints with the public keys that signed them.

    Every field besides ``events`` and the signatures repeats a fact of the hash-chained
    events, and ``verify_export`` checks that it does (audit.verification.EXPORT_FIELDS).
    """
    rows = GameEvent.objects.filter(game=game).order_by("seq")
    return {
        "format": FORMAT,
        "game": str(game.id),
        "ruleset": game.ruleset,
        "ruleset_version": game.ruleset_version,
        "options": game.options,
        "status": game.status,
        "seed_commitment": game.seed_commitment,
        "seed": game.revealed_seed,
        "outcome": game.outcome,
        "events": [storage.record_of(row) for row in rows.iterator()],
        **signatures_of(game),
    }


def signatures_of(game: Game) -> dict[str, Any]:
    """The signed checkpoints of a game's log and the public keys that signed them (from
    those the server publishes, so an export names no key the server disowns)."""
    snapshots = Snapshot.objects.filter(game=game).exclude(signature="").order_by("seq")
    checkpoints = [
        {"seq": s.seq, "hash": s.head_hash, "key_id": s.key_id, "signature": s.signature}
        for s in snapshots
    ]
    published = signing.published_keys()
    used = {point["key_id"] for point in checkpoints}
    return {
        "checkpoints": checkpoints,
        "signing_keys": {k: v for k, v in published.items() if k in used},
    }


def verify_export(
    document: Any, *, keys: dict[str, str] | None = None, pinned: set[str] | None = None
) -> Verdict:
    """Chain, fields, replay, (once over) re-execution and signatures of an export; no
    database. ``keys`` (key id -> base64 public key, as ``GET /api/keys/`` publishes)
    are the keys trusted; without them, the keys the export embeds whose fingerprint is
    their id, only those in ``pinned`` if given (see games.storage.signing)."""
    return verify_document(document, keys=keys, pinned=pinned)


def started_game(game_id: str, doing: str) -> Game:
    """The game with this id for an audit or export, or a CommandError saying why not (no
    such game, or one not started: its log, which starts at table_started, is empty)."""
    from django.core.exceptions import ValidationError
    from django.core.management.base import CommandError

    try:
        game = Game.objects.get(pk=game_id)
    except (Game.DoesNotExist, ValidationError, ValueError) as exc:  # not a game id
        raise CommandError(f"no game {game_id}") from exc
    if game.head_seq == 0:
        raise CommandError(f"game {game.id} has not started: it has no events to {doing}")
    return game
