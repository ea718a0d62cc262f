"""A game's whole history as one JSON document, and its verification without a database."""

from __future__ import annotations

from typing import Any

from games import store
from games.audit import Verdict, verify
from games.models import Game, GameEvent, Snapshot

FORMAT = "kingdom-game-export/1"


def export_game(game: Game) -> dict[str, Any]:
    """The ruleset version, the commands, the events, the hashes and (once over) the seed."""
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


def verify_export(document: dict[str, Any]) -> Verdict:
    return verify(
        document["events"],
        ruleset_key=document["ruleset"],
        seed=document.get("seed"),
        outcome=document.get("outcome"),
        game=document.get("game", ""),
    )


def audit(game: Game) -> Verdict:
    """The full audit of a stored game: chain, replay against snapshots, re-execution."""
    snapshots = {s.seq: s.state for s in Snapshot.objects.filter(game=game)}
    records = [store.record_of(r) for r in GameEvent.objects.filter(game=game).order_by("seq")]
    verdict = verify(
        records,
        ruleset_key=game.ruleset,
        seed=game.revealed_seed,
        snapshots=snapshots,
        outcome=game.outcome if game.status == Game.Status.FINISHED else None,
        game=str(game.id),
    )
    if records and records[-1]["seq"] != game.head_seq:
        verdict.replay_matches = False
        verdict.problems.append(
            f"head_seq {game.head_seq} but the log ends at {records[-1]['seq']}"
        )
    return verdict
