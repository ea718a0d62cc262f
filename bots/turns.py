"""Taking one bot turn: the only thing the bot runners (bots/runners.py) call."""

from __future__ import annotations

import functools
import logging
import time
import uuid

from celery.exceptions import SoftTimeLimitExceeded
from django.utils.crypto import salted_hmac

from bots.search.budget import thinking_budget
from bots.strategies import get_strategy
from games import services, storage
from games import table as tables
from games.errors import ServiceError
from games.models import Game, Seat
from games.rules import get_ruleset
from games.rules.base import seeded_rng
from infra.metrics import bot_turn

log = logging.getLogger(__name__)
# One line per bot move at INFO (the service's own lines' level): how long the choice took
# against the table's thinking time, per level (``bench bots`` reads them for the p99).
chosen = logging.getLogger("kingdom.bots")
# Salt of the keyed hash that derives a bot's command id from (game, seq, seat).
BOT_COMMANDS = "bots.turns.bot_command_id"


def bot_command_id(game_id: uuid.UUID | str, seq: int, seat: int) -> uuid.UUID:
    """The id of a bot's command at ``seq``: the same on every delivery of the task (so a
    redelivery is answered from the log), but keyed with the server's secret. A player
    who could compute it could record it first with a move of their own and stall the
    bot seat for good."""
    digest = salted_hmac(BOT_COMMANDS, f"{game_id}:{seq}:{seat}", algorithm="sha256").digest()
    return uuid.UUID(bytes=digest[:16])


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
    with storage.reading(game) as table:
        return tables.bots_to_act(rules, table, levels, services.TAKEOVER_LEVEL)


def take_turn(game_id: uuid.UUID | str, seat: int, expected_seq: int) -> bool:
    """Play one command for a bot seat if it is still that seat's move at ``expected_seq``.

    Returns True when a command was appended. A stale or redelivered task does nothing.
    Either way the turns owed at ``expected_seq`` are taken (``owed_clear``); a turn that
    raises stays owed, and bots/scheduling.py sends it again once its lease runs out.
    """
    played = _play(game_id, seat, expected_seq)
    owed_clear(game_id, expected_seq)
    return played


def owed_clear(game_id: uuid.UUID | str, seq: int) -> None:
    """Nothing more is owed at ``seq`` (a move the turn made recorded the next head's own,
    which this leaves alone)."""
    Game.objects.filter(pk=game_id, head_seq=seq).update(bots_due_at=None)


def _play(game_id: uuid.UUID | str, seat: int, expected_seq: int) -> bool:
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
    started = time.perf_counter()
    with (
        storage.reading(game) as table,
        thinking_budget(seconds=game.think_seconds),
        bot_turn(level),
    ):
        try:
            command = strategy(rules, table.rules, seat, rng)
        except SoftTimeLimitExceeded:
            # Celery's safety net (bots/runners.py) fired: a quick sound move beats none.
            log.warning("bot %s of %s overran its budget; the medium bot moves", seat, game_id)
            fallback = get_strategy(rules.key, services.TAKEOVER_LEVEL)
            command = fallback(rules, table.rules, seat, rng)
    chosen.info(
        "bot move chosen",
        extra={
            "game_id": str(game_id),
            "seq": expected_seq,
            "level": level,
            "seconds": round(time.perf_counter() - started, 4),
            "think_seconds": game.think_seconds,
        },
    )
    try:
        result = _submit(game, seat, command, expected_seq)
    except ServiceError as exc:
        if exc.code in {"stale_seq", "game_not_active"}:
            return False
        log.error("bot %s of %s chose a refused command %s: %s", seat, game_id, command, exc)
        raise
    return not result.replayed


def _submit(game: Game, seat: int, command: dict, expected_seq: int) -> services.Submitted:
    submit = functools.partial(
        services.game_submit,
        game_id=game.id,
        command=command,
        bot_seat=seat,
        expected_seq=expected_seq,
    )
    try:
        return submit(command_id=bot_command_id(game.id, expected_seq, seat))
    except ServiceError as exc:
        if exc.code != "command_id_taken":
            raise
    # Another actor recorded the bot's id (it is secret, so only if the key leaked): play
    # under a fresh one. expected_seq still keeps a redelivered task from playing twice,
    # so nobody's use of the id can stall the seat.
    log.warning("bot %s of %s: its command id was taken; playing on", seat, game.id)
    return submit(command_id=uuid.uuid4())
