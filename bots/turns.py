"""Taking one bot turn: the only thing bot runners (Celery or in-process) call."""

from __future__ import annotations

import logging
import uuid

from celery.exceptions import SoftTimeLimitExceeded

from bots.search.budget import thinking_budget
from bots.strategies import get_strategy
from games import services, store
from games.errors import ServiceError
from games.models import Game, Seat
from games.rules import get_ruleset
from games.rules.base import seeded_rng

log = logging.getLogger(__name__)
# Namespace for command ids derived from (game, seq, seat): a redelivered task submits the
# same id, so the service answers it from the log instead of playing twice.
BOT_COMMANDS = uuid.UUID("6b1f3c1e-7d0a-4a51-9b7e-2f4c8d1a9e55")


def bot_command_id(game_id: uuid.UUID | str, seq: int, seat: int) -> uuid.UUID:
    return uuid.uuid5(BOT_COMMANDS, f"{game_id}:{seq}:{seat}")


def bot_seats_to_act(game: Game) -> list[tuple[int, str]]:
    """(seat, level) of each bot-played seat that may act at the game's head: bots from
    the start, seats taken over from players who left, and turns the others skipped."""
    if game.status != Game.Status.ACTIVE:
        return []
    levels = {
        s.number: s.bot_level
        for s in Seat.objects.filter(game=game).exclude(bot_level="")
        if s.number is not None
    }
    rules = get_ruleset(game.ruleset)
    with store.reading(game) as table:
        if table.over:
            return []
        for seat in table.skipping:
            levels.setdefault(seat, services.TAKEOVER_LEVEL)
        if not levels:
            return []
        return [
            (seat, levels[seat]) for seat in sorted(rules.to_act(table.rules)) if seat in levels
        ]


def take_turn(game_id: uuid.UUID | str, seat: int, expected_seq: int) -> bool:
    """Play one command for a bot seat if it is still that seat's move at ``expected_seq``.

    Returns True when a command was appended. A stale or redelivered task does nothing.
    """
    try:
        game = Game.objects.get(pk=game_id)
    except Game.DoesNotExist:
        return False
    if game.head_seq != expected_seq:
        return False
    level = dict(bot_seats_to_act(game)).get(seat)
    if level is None:
        return False
    rules = get_ruleset(game.ruleset)
    strategy = get_strategy(rules.key, level)
    # The bot's own RNG: derived from the game's seq and seat, but never from the game's
    # secret seed (a bot must not be able to predict the deck).
    rng = seeded_rng(f"bot:{game_id}:{seat}", expected_seq)
    with store.reading(game) as table, thinking_budget(seconds=game.think_seconds):
        try:
            command = strategy(rules, table.rules, seat, rng)
        except SoftTimeLimitExceeded:
            # Celery's safety net (bots/dispatch.py) fired: a quick sound move beats none.
            log.warning("bot %s of %s overran its budget; the medium bot moves", seat, game_id)
            fallback = get_strategy(rules.key, services.TAKEOVER_LEVEL)
            command = fallback(rules, table.rules, seat, rng)
    try:
        result = services.game_submit(
            game_id=game.id,
            command=command,
            bot_seat=seat,
            command_id=bot_command_id(game.id, expected_seq, seat),
            expected_seq=expected_seq,
        )
    except ServiceError as exc:
        if exc.code in {"stale_seq", "game_not_active"}:
            return False
        log.error("bot %s of %s chose a refused command %s: %s", seat, game_id, command, exc)
        raise
    return not result.replayed
