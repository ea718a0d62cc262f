"""What an account's event stream (``GET /api/stream/event/``, games/api/streams.py) is
told: a challenge made, canceled or declined, a game of theirs started or finished. Sent
after commit on the account's group of the channel layer, one line each; a stream that
missed one reads the same facts again when it reopens (the games in progress and the
open challenges)."""

from __future__ import annotations

from typing import Any

from django.db import transaction

from games import publishing
from games.models import Challenge, Game, Seat
from games.selectors import challenges as challenge_reads


def events_group(user_id: int) -> str:
    return f"account-events.{user_id}"


def send(user_id: int, line: dict[str, Any]) -> None:
    publishing.send_to_group(events_group(user_id), {"type": "account.event", "line": line})


def after_commit(challenge: Challenge, kind: str) -> None:
    """Tell both parties of ``challenge`` (``kind``: challenge, challengeCanceled,
    challengeDeclined) once the transaction commits."""
    found = challenge_reads.challenge_json(challenge)
    # Each party is told which way the challenge goes: "out" theirs, "in" to them.
    parties = ((challenge.challenger_id, "out"), (challenge.challenged_id, "in"))

    def notify() -> None:
        for user_id, direction in parties:
            send(user_id, {"type": kind, "challenge": {**found, "direction": direction}})

    transaction.on_commit(notify)


def game_line(game: Game, kind: str) -> dict[str, Any]:
    return {"type": kind, "game": challenge_reads.game_json(game)}


def game_started(game: Game, seats: list[Seat]) -> None:
    """Every seated player's stream hears ``gameStart`` once the start commits."""
    line = game_line(game, "gameStart")
    people = [s.user_id for s in seats if s.user_id is not None]

    def notify() -> None:
        for user_id in people:
            send(user_id, line)

    transaction.on_commit(notify)


def game_finished(game: Game) -> None:
    """Every seated player's stream hears ``gameFinish`` once the result commits."""
    line = game_line(game, "gameFinish")
    people = list(game.seats.filter(user__isnull=False).values_list("user_id", flat=True))

    def notify() -> None:
        for user_id in people:
            send(user_id, line)

    transaction.on_commit(notify)


def on_game_finished(sender: Any, game: Game, **kwargs: Any) -> None:
    """``games.signals.game_finished`` (sent in the finishing write's transaction)."""
    game_finished(game)
