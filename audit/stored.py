"""The audit of a game stored in the database: its export, snapshots and the server's
published keys, read in one place (``audit_case``) and verified (``audit_game``); the
verification itself is pure (audit.verification), so it also runs in worker processes.
"""

from __future__ import annotations

from typing import Any

from audit.exports import export_game
from audit.verification import Verdict, verify_document
from games.models import Game, Snapshot
from games.storage import signing
from infra import metrics


def audit_case(game: Game) -> dict[str, Any]:
    """What an audit of a stored game needs, read from the database in one place: the
    export, the snapshots and the head seq (picklable, for worker processes)."""
    return {
        "document": export_game(game),
        "snapshots": {s.seq: s.state for s in Snapshot.objects.filter(game=game)},
        "head_seq": game.head_seq,
        "keys": signing.published_keys(),
    }


@metrics.counted_audit
def audit_game(game: Game) -> Verdict:
    """The full audit of a stored game: the game's fields against its log, the chain,
    replay against every snapshot (the final one too), re-execution once over, and every
    checkpoint's signature against the keys the server publishes."""
    case = audit_case(game)
    return verify_document(
        case["document"], snapshots=case["snapshots"], head_seq=game.head_seq, keys=case["keys"]
    )
