"""Commands sent over the game socket: ``{"type": "command", "command": {...},
"expected_seq": n, "command_id": "<uuid>", "ref": <anything>}``.

The same write path as ``POST /api/tables/<id>/commands/`` (``services.game_submit``:
validation, the lock, ``expected_seq`` → ``stale_seq``, an idempotent ``command_id``),
the same body rules (``CommandSerializer``) and the same rate limit (the "commands"
scope, through the configured DRF throttles). The answer is ``{"type": "accepted",
"ref", "head_seq", "replayed"}`` or ``{"type": "error", "ref", "code", "message",
"status"}``. When the write's own update for this socket is at hand (games/consumers.py),
the answer rides in it: one ``events`` frame with ``"accepted": {"ref", "head_seq",
"replayed"}``, so a move costs its socket one frame, not two, and the mover sees its
move without waiting for the channel layer. Otherwise the events come as every move's
do, in a later frame.
Lichess and boardgame.io take moves over their sockets too: a move then costs no HTTP
request, no middleware and no authentication beyond the socket's own. A ban needs no
check here: it kicks the player from every game in play, and the write path refuses a
seat whose player has left.
"""

from __future__ import annotations

from typing import Any

from rest_framework.exceptions import ValidationError

from games import services
from games.api.serializers import valid_command
from games.api.throttling import refuse_if_throttled
from games.errors import Forbidden, ServiceError
from games.services import Submitted

THROTTLE_SCOPE = "commands"


def submit(game_id: str, user: Any, message: dict[str, Any]) -> Submitted:
    """Run one socket command through the write path. Raises ``ServiceError`` (the answer
    is then an ``error``)."""
    if user is None or not user.is_authenticated:
        raise Forbidden("not_authenticated", "Log in (or open the socket with a ticket) to play.")
    try:
        body = valid_command({k: v for k, v in message.items() if k not in {"type", "ref"}})
    except ValidationError as exc:
        field, problems = next(iter(exc.detail.items()))
        raise ServiceError("invalid", f"{field}: {problems[0]}", fields=exc.detail) from exc
    refuse_if_throttled(THROTTLE_SCOPE, user)
    return services.game_submit(
        game_id=game_id,
        user=user,
        command=body["command"],
        command_id=body.get("command_id"),
        expected_seq=body.get("expected_seq"),
    )
