"""Bans and mutes taking effect."""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from community import services as community_services
from community.models import Mute
from games import services
from games.errors import ServiceError
from tests.games.helpers import humans_game

pytestmark = pytest.mark.django_db(transaction=True)


def test_a_ban_deactivates_the_account_and_bots_take_its_seats(trio, mod):
    ana, bob, cy = trio
    playing = humans_game([ana, bob, cy])
    waiting = services.table_create(user=cy, ruleset="kingdoms", seats=3)
    services.table_join(game_id=waiting.id, user=bob)
    kicks = community_services.account_ban(player=bob, moderator=mod, reason="cheating")
    bob.refresh_from_db()
    assert not bob.is_active and len(kicks) == 2
    assert playing.seats.get(user=bob).kicked
    assert not waiting.seats.filter(user=bob).exists()
    client = APIClient()
    assert not client.login(username="bob", password="pw-123456789")
    with pytest.raises(ServiceError):
        community_services.account_ban(player=mod, moderator=mod, reason="oops")


def test_a_mute_stops_chat_until_it_ends_or_is_lifted(trio, mod):
    game = humans_game(trio[:2])
    community_services.player_mute(player=trio[0], moderator=mod, reason="spam", minutes=10)
    with pytest.raises(ServiceError) as err:
        community_services.chat_post(game_id=game.id, user=trio[0], body="let me talk")
    assert err.value.code == "muted" and "until" in err.value.message
    Mute.objects.update(until=Mute.objects.get().created_at)  # it ran out
    community_services.chat_post(game_id=game.id, user=trio[0], body="back")
    community_services.player_mute(player=trio[0], moderator=mod, reason="spam again")
    with pytest.raises(ServiceError):
        community_services.chat_post(game_id=game.id, user=trio[0], body="still?")
    community_services.player_unmute(player=trio[0], moderator=mod, reason="ok")
    community_services.chat_post(game_id=game.id, user=trio[0], body="thanks")
