"""A game's whole history as one JSON document, and its verification without a database."""

from __future__ import annotations

from typing import Any

from games import store
from games.audit import EXPORT_FORMAT, Verdict, verify_document
from games.models import Game, GameEvent, Snapshot

FORMAT = EXPORT_FORMAT


def export_game(game: Game) -> dict[str, Any]:
    """The ruleset version, the commands, the events, the hashes and (once over) the seed.

    Every field besides ``events`` repeats a fact of the hash-chained events, and
    ``verify_export`` checks that it does (games.audit.EXPORT_FIELDS).
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
        "events": [store.record_of(row) for row in rows.iterator()],
    }


def verify_export(document: Any) -> Verdict:
    """Chain, fields, replay and (once over) re-execution of an export; no database."""
    return verify_document(document)


def audit_case(game: Game) -> dict[str, Any]:
    """What an audit of a stored game needs, read from the database in one place: the
    export, the snapshots and the head seq (picklable, for worker processes)."""
    return {
        "document": export_game(game),
        "snapshots": {s.seq: s.state for s in Snapshot.objects.filter(game=game)},
        "head_seq": game.head_seq,
    }


def audit(game: Game) -> Verdict:
    """The full audit of a stored game: the game's fields against its log, the chain,
    replay against every snapshot (the final one too), and re-execution once over."""
    case = audit_case(game)
    return verify_document(case["document"], snapshots=case["snapshots"], head_seq=game.head_seq)


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
