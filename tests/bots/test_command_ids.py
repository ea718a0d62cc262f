"""A bot's command ids: secret to the server, so no player can take one first and stall
the bot seat."""

from __future__ import annotations

import uuid

import pytest
from django.db import transaction

from bots import turns
from games import selectors, services, storage
from games.models import Game, GameEvent
from tests.games.helpers import game_with_bots, humans_game, to_act

pytestmark = pytest.mark.django_db(transaction=True)
# The namespace bots used to derive their ids with, uuid5(namespace, "game:seq:seat"):
# public, so any player could compute the id of a bot's next command.
PUBLIC_NAMESPACE = uuid.UUID("6b1f3c1e-7d0a-4a51-9b7e-2f4c8d1a9e55")


class _Undo(Exception):
    pass


def dry_run(game: Game, user, command: dict) -> tuple[int, set[int]]:
    """The head ``command`` would leave and who would act then, found by playing it and
    rolling it back (what a player can work out from the rules)."""
    try:
        with transaction.atomic():
            head = services.game_submit(game_id=game.id, user=user, command=command).head_seq
            seats = to_act(game)
            raise _Undo
    except _Undo:
        pass
    storage.heads.clear()
    game.refresh_from_db()
    return head, seats


def until_the_move_before(game: Game, bot: int) -> tuple[dict, int, object]:
    """Play on (bots too) up to a human command that hands the move to ``bot``: that
    command, the seq at which the bot will act, and the human who sends it."""
    while True:
        game.refresh_from_db()
        acting = turns.bot_seats_to_act(game)
        if acting:
            turns.take_turn(game.id, acting[0][0], game.head_seq)
            continue
        seat = min(to_act(game))
        user = game.seats.get(number=seat).user
        command = selectors.legal_commands(game, seat)[0]
        head, seats = dry_run(game, user, command)
        if bot in seats:
            return command, head, user
        services.game_submit(game_id=game.id, user=user, command=command)


def human_before_the_bot(user, settings) -> tuple[Game, int, dict, int]:
    """A human-against-bot game where the human's next command hands the move to the bot:
    (game, the bot's seat, that command, the seq at which the bot will act)."""
    settings.BOT_RUNNER = "none"
    game = game_with_bots(user, bots=1, level="medium")
    services.game_start(game_id=game.id, user=user)
    bot = 1 - game.seats.get(user=user).number
    command, head, _user = until_the_move_before(game, bot)
    return game, bot, command, head


def assert_the_bot_moves_on(game: Game, bot: int, head: int) -> None:
    game.refresh_from_db()
    assert game.head_seq == head
    assert turns.take_turn(game.id, bot, head) is True, "the bot seat is not stalled"
    game.refresh_from_db()
    assert game.head_seq > head
    assert GameEvent.objects.get(game=game, seq=head + 1).actor == f"bot:{bot}"


def test_a_player_who_takes_the_bots_once_public_id_does_not_stall_it(make_user, settings):
    user = make_user()
    game, bot, command, head = human_before_the_bot(user, settings)
    guessed = uuid.uuid5(PUBLIC_NAMESPACE, f"{game.id}:{head}:{bot}")
    services.game_submit(game_id=game.id, user=user, command=command, command_id=guessed)
    assert turns.bot_command_id(game.id, head, bot) != guessed
    assert_the_bot_moves_on(game, bot, head)


def test_a_bot_whose_id_was_taken_by_a_player_plays_on_under_another(make_user, settings):
    """Defence in depth: were the key to leak, a taken id still cannot stall the seat."""
    user = make_user()
    game, bot, command, head = human_before_the_bot(user, settings)
    taken = turns.bot_command_id(game.id, head, bot)
    services.game_submit(game_id=game.id, user=user, command=command, command_id=taken)
    assert_the_bot_moves_on(game, bot, head)
    assert GameEvent.objects.get(game=game, command_id=taken).actor.startswith("seat:")
    assert GameEvent.objects.get(game=game, seq=head + 1).command_id != taken


def test_a_seat_taken_over_after_a_resignation_cannot_be_stalled_either(make_user, settings):
    settings.BOT_RUNNER = "none"
    game = humans_game([make_user("ana"), make_user("bob"), make_user("cy")])
    leaver = next(s for s in game.seats.all() if s.number not in to_act(game))
    services.game_resign(game_id=game.id, user=leaver.user)
    command, head, attacker = until_the_move_before(game, leaver.number)
    guessed = uuid.uuid5(PUBLIC_NAMESPACE, f"{game.id}:{head}:{leaver.number}")
    services.game_submit(game_id=game.id, user=attacker, command=command, command_id=guessed)
    assert_the_bot_moves_on(game, leaver.number, head)


def test_bot_command_ids_are_keyed_with_the_servers_secret(settings):
    a = turns.bot_command_id("g", 5, 1)
    assert a != uuid.uuid5(PUBLIC_NAMESPACE, "g:5:1")
    settings.SECRET_KEY = "another-secret-" + "x" * 40
    assert turns.bot_command_id("g", 5, 1) != a
