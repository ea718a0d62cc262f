"""A moderator acting as another table's host, on the record; staff alone may not."""

from __future__ import annotations

import pytest

from community.models import ModerationRecord
from games import services
from games.errors import ServiceError
from games.models import Game
from games.signals import HOST_ACTION

pytestmark = pytest.mark.django_db(transaction=True)


def test_a_moderator_may_act_as_another_tables_host_and_it_is_recorded(trio, mod):
    host, guest, _ = trio
    game = services.table_create(user=host, ruleset="kingdoms", seats=4)
    services.table_join(game_id=game.id, user=guest)
    services.bot_add(game_id=game.id, user=host, level="easy")  # the host: no record
    assert not ModerationRecord.objects.exists()
    bot = services.bot_add(game_id=game.id, user=mod, level="medium")
    services.bot_remove(game_id=game.id, user=mod, seat_id=bot.pk)
    services.bot_add(game_id=game.id, user=mod, level="easy")
    services.game_start(game_id=game.id, user=mod)
    assert Game.objects.get(pk=game.id).status == Game.Status.ACTIVE
    records = ModerationRecord.objects.filter(action=HOST_ACTION).order_by("id")
    assert [r.reason for r in records] == [
        "added a bot (medium) at ana's table",
        f"removed a bot (seat id {bot.pk}) at ana's table",
        "added a bot (easy) at ana's table",
        "started the game at ana's table",
    ]
    assert {(r.moderator_name, r.game_id) for r in records} == {("mod", game.id)}


def test_staff_without_the_permission_cannot_act_as_another_tables_host(trio, make_user):
    host, guest, _ = trio
    staff = make_user("staff", staff=True)
    game = services.table_create(user=host, ruleset="kingdoms", seats=3)
    services.table_join(game_id=game.id, user=guest)
    bot = services.bot_add(game_id=game.id, user=host, level="easy")
    attempts = [
        lambda who: services.bot_add(game_id=game.id, user=who, level="easy"),
        lambda who: services.bot_remove(game_id=game.id, user=who, seat_id=bot.pk),
        lambda who: services.game_start(game_id=game.id, user=who),
    ]
    for who in (staff, guest):
        for attempt in attempts:
            with pytest.raises(ServiceError) as err:
                attempt(who)
            assert (err.value.code, err.value.status) == ("forbidden", 403)
    assert Game.objects.get(pk=game.id).status == Game.Status.OPEN
    assert game.seats.count() == 3
    assert not ModerationRecord.objects.exists()
