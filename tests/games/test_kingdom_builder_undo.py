"""Kingdom Builder's undo through the service: recorded as an event, replayed by the
audit, and never played by a bot."""

from __future__ import annotations

import pytest

from audit.stored import audit_game
from games import selectors, services
from games.models import Game, GameEvent
from tests.games.helpers import game_with_bots, pin_seed

pytestmark = pytest.mark.django_db(transaction=True)


def test_a_player_undoes_a_build_over_rest_and_the_audit_replays_it(api):
    client = api("ana")
    game = game_with_bots(client.user, ruleset="kingdom-builder", bots=1, level="medium")
    pin_seed(game, "undo-0")
    services.game_start(game_id=game.id, user=client.user)
    base = f"/api/tables/{game.id}"
    legal = client.get(f"{base}/legal/").json()
    assert {"type": "undo"} not in legal["commands"]
    build = next(c for c in legal["commands"] if c["type"] == "build")
    before = client.get(f"{base}/view/").json()["state"]
    client.post(f"{base}/commands/", {"command": build}, format="json")
    legal = client.get(f"{base}/legal/").json()
    assert {"type": "undo"} in legal["commands"]
    answer = client.post(f"{base}/commands/", {"command": {"type": "undo"}}, format="json")
    assert answer.status_code == 201
    assert [e["type"] for e in answer.json()["events"]] == ["move_undone"]
    assert answer.json()["events"][0]["text"] == "ana took back their last move."
    after = client.get(f"{base}/view/").json()["state"]
    assert after["players"] == before["players"] and after["turn"] == before["turn"]
    game.refresh_from_db()
    assert audit_game(game).passed, audit_game(game).problems


def test_bots_play_a_kingdom_builder_table_with_undo_to_the_end_without_undoing(make_user):
    game = game_with_bots(make_user(), ruleset="kingdom-builder", bots=2, join=False)
    assert game.options["undo"] is True
    services.game_start(game_id=game.id, user=game.created_by)
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED
    assert not GameEvent.objects.filter(game=game, type="move_undone").exists()
    assert audit_game(game).passed, audit_game(game).problems
    assert selectors.legal_commands(game, 0) == []
