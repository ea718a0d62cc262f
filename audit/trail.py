"""What the audit page shows: the hash chain's status, the seed commitment and (once the
game is over) the revealed seed with a full verification, the public event timeline with
actor and time, and the moderators' actions on the game.

The timeline is the spectator's redaction (public parts only) for every reader, staff
included: an auditor needs the facts everyone was shown, not anyone's secrets. So it never
asks ``selectors.viewer_seat``: a seated or departed player sees no more here than anyone.
Once the game is over that redaction carries every seat's private parts (``revealed``),
as it does for every reader (``selectors.reveals_all``).
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import AbstractUser, AnonymousUser

from audit.stored import audit_game
from community.selectors import moderation_of
from games import selectors
from games.models import Game
from games.rules import get_ruleset


def may_audit(game: Game, user: AbstractUser | AnonymousUser | None) -> bool:
    """Finished (or aborted) games: anyone. In progress or open: staff only."""
    if game.is_over:
        return True
    return bool(user is not None and user.is_authenticated and user.is_active and user.is_staff)


def audit_report(game: Game) -> dict[str, Any]:
    """The whole audit of one game as JSON (the page renders the same)."""
    try:
        ruleset_name = get_ruleset(game.ruleset).name
    except KeyError:
        ruleset_name = game.ruleset
    return {
        **selectors.audit_summary(game),
        "ruleset": game.ruleset,
        "ruleset_name": ruleset_name,
        "ruleset_version": game.ruleset_version,
        "options": game.options,
        "time_control": game.time_control or {"kind": "none"},
        "started_at": game.started_at.isoformat() if game.started_at else None,
        "finished_at": game.finished_at.isoformat() if game.finished_at else None,
        "outcome": game.outcome,
        "seats": selectors.seats_json(game),
        # Re-execution with the seed runs only once the seed is revealed (game over).
        "verdict": audit_game(game).as_json() if game.head_seq else None,
        "timeline": selectors.events_after(game, None, 0, limit=1_000_000),
        "moderation": moderation_of(game),
    }
