"""A rematch: the same game again (ruleset, options, seats, clock, bots at their levels)
for the players of a game that is over; the first to ask hosts it, the others join it."""

from __future__ import annotations

import pytest

from games import services
from games.models import Game
from tests.games.helpers import humans_game

pytestmark = pytest.mark.django_db


def resigned_game(users, bots: int = 1) -> Game:
    game = humans_game(users, time_control={"kind": "realtime", "minutes": 5}, bots=bots)
    for user in users[1:]:
        services.game_resign(game_id=game.id, user=user)
    services.game_resign(game_id=game.id, user=users[0])
    game.refresh_from_db()
    return game


def test_the_first_player_to_ask_hosts_a_table_like_the_game(api):
    ana, bo = api("ana"), api("bo")
    game = resigned_game([ana.user, bo.user])
    assert game.status == Game.Status.FINISHED
    answer = bo.post(f"/api/tables/{game.id}/rematch/")
    assert answer.status_code == 201, answer.json()
    table = answer.json()
    assert table["status"] == "open" and table["host"] == "bo"
    assert table["ruleset"] == game.ruleset and table["seats_wanted"] == game.seats_wanted
    assert table["time_control"]["kind"] == "realtime"
    # Bo is seated, the bot sits down again at its level; Ana's seat waits for her.
    assert [(s["user"], s["bot"]) for s in table["seats"]] == [("bo", None), (None, "easy")]


def test_the_others_asking_join_the_same_rematch(api):
    ana, bo = api("ana"), api("bo")
    game = resigned_game([ana.user, bo.user])
    first = bo.post(f"/api/tables/{game.id}/rematch/").json()
    second = ana.post(f"/api/tables/{game.id}/rematch/").json()
    assert second["id"] == first["id"]
    assert sorted(s["user"] or "" for s in second["seats"]) == ["", "ana", "bo"]
    # Asking again changes nothing.
    again = ana.post(f"/api/tables/{game.id}/rematch/").json()
    assert again["id"] == first["id"] and len(again["seats"]) == 3


def test_a_rematch_waits_for_the_game_to_end_and_is_for_its_players(api):
    ana, bo, eve = api("ana"), api("bo"), api("eve")
    game = humans_game([ana.user, bo.user])
    answer = ana.post(f"/api/tables/{game.id}/rematch/")
    assert answer.status_code == 409 and answer.json()["code"] == "game_not_over"
    services.game_resign(game_id=game.id, user=bo.user)
    answer = eve.post(f"/api/tables/{game.id}/rematch/")
    assert answer.status_code == 403 and answer.json()["code"] == "forbidden"


def test_the_games_players_see_the_open_rematch_until_it_starts(api):
    ana, bo = api("ana"), api("bo")
    game = resigned_game([ana.user, bo.user])
    assert ana.get(f"/api/tables/{game.id}/").json()["rematch"] is None
    opened = bo.post(f"/api/tables/{game.id}/rematch/").json()
    offer = {"id": opened["id"], "by": "bo"}
    assert ana.get(f"/api/tables/{game.id}/").json()["rematch"] == offer
    # Ana takes the way shown: the same endpoint seats her at that table.
    assert ana.post(f"/api/tables/{game.id}/rematch/").json()["id"] == opened["id"]
    assert bo.post(f"/api/tables/{opened['id']}/start/").status_code == 200
    assert ana.get(f"/api/tables/{game.id}/").json()["rematch"] is None


def test_a_table_like_the_game_opened_by_hand_is_not_its_rematch(api):
    ana, bo = api("ana"), api("bo")
    game = resigned_game([ana.user, bo.user])
    by_hand = services.table_create(
        user=bo.user, ruleset=game.ruleset, seats=game.seats_wanted, options=game.options
    )
    assert ana.get(f"/api/tables/{game.id}/").json()["rematch"] is None
    rematch = ana.post(f"/api/tables/{game.id}/rematch/").json()
    assert rematch["id"] != str(by_hand.id) and rematch["host"] == "ana"


def test_a_rematch_against_bots_only_starts_at_once(api):
    ana = api("ana")
    game = resigned_game([ana.user], bots=1)
    answer = ana.post(f"/api/tables/{game.id}/rematch/")
    assert answer.status_code == 201, answer.json()
    table = answer.json()
    assert table["status"] == "active"
    assert sorted((s["user"] or "", s["bot"] or "") for s in table["seats"]) == [
        ("", "easy"),
        ("ana", ""),
    ]
    # Asking again finds no open rematch: the started one is not offered again.
    again = ana.post(f"/api/tables/{game.id}/rematch/").json()
    assert again["id"] != table["id"]


def test_a_rematch_seats_the_searching_bots_again_at_their_levels(api, settings):
    settings.BOT_RUNNER = "none"  # nobody moves: the game can be aborted unplayed
    ana = api("ana")
    game = services.table_create(user=ana.user, ruleset="kingdoms", seats=3, bot_think_seconds=0.5)
    for level in ("expert", "hard"):
        services.bot_add(game_id=game.id, user=ana.user, level=level)
    services.game_start(game_id=game.id, user=ana.user)
    services.game_abort_unplayed(game_id=game.id, user=ana.user)
    answer = ana.post(f"/api/tables/{game.id}/rematch/")
    assert answer.status_code == 201, answer.json()
    table = answer.json()
    # Against bots only it starts at once, with the table's thinking time kept.
    assert table["status"] == "active" and table["bot_think_seconds"] == 0.5
    assert sorted((s["name"], s["bot"] or "") for s in table["seats"]) == [
        ("Bot 2 (expert)", "expert"),
        ("Bot 3 (hard)", "hard"),
        ("ana", ""),
    ]


def test_a_rematch_nobody_joined_closes_after_a_few_minutes(api, settings):
    from datetime import timedelta

    from django.utils import timezone

    ana, bo = api("ana"), api("bo")
    game = resigned_game([ana.user, bo.user])
    opened = bo.post(f"/api/tables/{game.id}/rematch/").json()
    later = timezone.now() + timedelta(minutes=settings.REMATCH_OPEN_MINUTES)
    assert services.stale_rematches_close(now=later - timedelta(seconds=5)) == 0
    assert services.stale_rematches_close(now=later + timedelta(seconds=1)) == 1
    closed = Game.objects.get(pk=opened["id"])
    assert closed.status == Game.Status.ABORTED
    assert ana.get(f"/api/tables/{game.id}/").json()["rematch"] is None
    # Asked again, a new rematch opens; a started rematch is never closed.
    again = ana.post(f"/api/tables/{game.id}/rematch/").json()
    assert again["id"] != opened["id"] and again["status"] == "open"
    bo.post(f"/api/tables/{again['id']}/join/")
    services.game_start(game_id=again["id"], user=ana.user)
    assert services.stale_rematches_close(now=later + timedelta(hours=1)) == 0
