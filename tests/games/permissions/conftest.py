"""The world every permission test acts in: one timed table in progress, an open table,
and a person for each role."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from community import services as community_services
from games import selectors, services
from games.models import Game
from tests.games.helpers import make_moderator, to_act
from tests.games.permissions.helpers import World, person


@pytest.fixture
def world() -> World:
    people = [person("p1"), person("p2"), person("p3")]
    game = services.table_create(
        user=people[0],
        ruleset="kingdoms",
        seats=3,
        time_control={"kind": "realtime", "minutes": 1, "increment_seconds": 0},
    )
    for user in people[1:]:
        services.table_join(game_id=game.id, user=user)
    services.game_start(game_id=game.id, user=people[0])
    game = Game.objects.get(pk=game.id)
    (late,) = to_act(game)
    services.clock_sweep(now=timezone.now() + timedelta(minutes=2))
    by_seat = {s.number: s.user for s in game.seats.all()}
    others = [u for seat, u in sorted(by_seat.items()) if seat != late]
    users = {
        "player": by_seat[late],
        "other_player": others[0],
        "third": others[1],
        "spectator": person("sam"),
        "muted": person("mu"),
        "banned": person("bo"),
        "staff": person("stan", staff=True),
        "moderator": make_moderator(person("mo")),
    }
    community_services.player_mute(
        player=users["muted"], moderator=users["moderator"], reason="spam"
    )
    community_services.account_ban(
        player=users["banned"], moderator=users["moderator"], reason="cheat"
    )
    lobby = services.table_create(user=users["player"], ruleset="kingdoms", seats=4)
    services.table_join(game_id=lobby.id, user=users["other_player"])
    bot = services.bot_add(game_id=lobby.id, user=users["player"], level="easy")
    message = community_services.chat_post(game_id=game.id, user=users["third"], body="hello all")
    report = community_services.chat_report(message_id=message.pk, user=users["other_player"])
    command = selectors.legal_commands(Game.objects.get(pk=game.id), late)[0]
    challenge = services.challenge_create(
        challenger=users["other_player"], username="sam", body={"ruleset": "kingdoms"}
    )
    return World(
        users,
        Game.objects.get(pk=game.id),
        lobby,
        bot.pk,
        command,
        late,
        message,
        report,
        challenge,
    )
