"""A move's answer over HTTP: what ``POST /api/tables/<id>/commands/`` returns, shared by
the DRF view (games/api/views.py ``TableCommands``) and the ASGI route API clients' moves
take (games/api/command_route.py), so the two cannot answer differently."""

from __future__ import annotations

from typing import Any

from games import pushed_news, selectors, services


def submit(game_id: Any, user: Any, body: dict[str, Any]) -> tuple[int, dict[str, Any]]:
    """Run a validated command body (``serializers.valid_command``) through the write
    path; the status (201, or 200 for a retry of a recorded ``command_id``) and the body.
    Raises ``ServiceError`` as ``services.game_submit`` does."""
    result = services.game_submit(
        game_id=game_id,
        user=user,
        command=body["command"],
        command_id=body.get("command_id"),
        expected_seq=body.get("expected_seq"),
    )
    # Answered from the row and seats the write locked: no second read of the game.
    game, seats = result.game, result.seats
    seat = selectors.viewer_seat_among(seats, user)
    events = pushed_news.events_for(result.pushed, seat)  # what the socket gets
    if events is None:
        names = selectors.seat_names(game, seats)
        events = selectors.redacted_events(game, result.events, seat, names)
    answer = {"head_seq": result.head_seq, "replayed": result.replayed, "events": events}
    return (200 if result.replayed else 201), answer
