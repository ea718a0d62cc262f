"""Once a game is over (finished or aborted) nothing is secret any more: every viewer,
spectators included, reads every seat's hidden parts over REST — the view's ``revealed``
(hands, starting tiles, terrain cards) and each event's private parts (never the
server-only ones, private "-1")."""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from games import services
from games import table as tables
from games.models import Game, GameEvent
from games.rules import get_ruleset
from games.storage import replay
from tests.games.helpers import game_with_bots, make_moderator, pin_seed

pytestmark = pytest.mark.django_db(transaction=True)

RULESETS = ["kingdoms", "kingdom-builder", "kingdom-cards"]


def spectator() -> APIClient:
    return APIClient()


def all_events(client: APIClient, game: Game) -> list[dict]:
    """Every event, a page (at most 1000) at a time, as a client reads a long log."""
    events: list[dict] = []
    while True:
        after = events[-1]["seq"] if events else 0
        page = client.get(f"/api/tables/{game.id}/events/?after={after}&limit=1000").json()
        events += page["events"]
        if not page["events"] or events[-1]["seq"] >= page["head_seq"]:
            return events


def assert_every_private_part_is_shown(client: APIClient, game: Game) -> None:
    events = all_events(client, game)
    rows = list(GameEvent.objects.filter(game=game).order_by("seq"))
    assert [e["seq"] for e in events] == [r.seq for r in rows]
    for event, row in zip(events, rows, strict=True):
        seats_parts = {k: v for k, v in row.private.items() if k != "-1"}
        assert event["revealed"] == seats_parts
    assert any(e["revealed"] for e in events)


def assert_the_view_shows_every_seats_secrets(client: APIClient, game: Game) -> dict:
    rules = get_ruleset(game.ruleset)
    secrets = rules.secrets(replay(game).rules)
    expected = {str(s): part for s, part in secrets.items()}
    view = client.get(f"/api/tables/{game.id}/view/").json()["state"]
    assert view["revealed"] == expected
    detail = client.get(f"/api/tables/{game.id}/").json()
    assert detail["view"]["revealed"] == expected
    return expected


@pytest.mark.parametrize("ruleset", RULESETS)
def test_a_finished_game_shows_every_seats_secrets_to_a_spectator(make_user, ruleset):
    rules = get_ruleset(ruleset)
    game = game_with_bots(make_user(), ruleset=ruleset, bots=rules.min_players, join=False)
    pin_seed(game, f"revealed-{ruleset}")
    services.game_start(game_id=game.id, user=game.created_by)
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED
    client = spectator()
    assert_every_private_part_is_shown(client, game)
    shown = assert_the_view_shows_every_seats_secrets(client, game)
    if ruleset == "kingdom-cards":
        assert set(shown) == {str(s) for s in range(rules.min_players)}
        assert all("hand" in part for part in shown.values())
    if ruleset == "kingdom-builder":
        assert all("terrain_cards" in part for part in shown.values())
    # A replay of the finished game shows them too, at any point.
    early = client.get(f"/api/tables/{game.id}/view/?at=5").json()["state"]
    assert "revealed" in early


@pytest.mark.parametrize("ruleset", RULESETS)
def test_an_aborted_game_shows_every_seats_secrets_and_a_game_in_progress_none(make_user, ruleset):
    host = make_user("host")
    rules = get_ruleset(ruleset)
    game = game_with_bots(host, ruleset=ruleset, bots=max(rules.min_players, 3) - 1)
    pin_seed(game, f"aborted-{ruleset}")
    services.game_start(game_id=game.id, user=host)
    game.refresh_from_db()
    assert game.status == Game.Status.ACTIVE  # the host's turn
    client = spectator()
    events = client.get(f"/api/tables/{game.id}/events/?after=0").json()["events"]
    assert not any("revealed" in e for e in events)
    assert "revealed" not in client.get(f"/api/tables/{game.id}/view/").json()["state"]
    hidden = rules.secrets(replay(game).rules)
    assert any(hidden.values())  # something is secret while the game runs

    services.game_abort(game_id=game.id, staff_user=make_moderator(make_user("mod")), reason="x")
    game.refresh_from_db()
    assert game.status == Game.Status.ABORTED
    assert_every_private_part_is_shown(client, game)
    shown = assert_the_view_shows_every_seats_secrets(client, game)
    assert shown == {str(s): part for s, part in hidden.items()}


def test_the_table_view_reveals_only_when_asked():
    # The one switch is the read path's (selectors.reveals_all); the view itself keeps
    # each seat's secrets unless told the game is over.
    rules = get_ruleset("kingdom-cards")
    players = [{"seat": s, "name": f"p{s}", "bot": False} for s in range(3)]
    events = tables.start_events(rules, {}, players, "seed", "commitment")
    table = tables.fold(rules, events)
    assert "revealed" not in tables.view(rules, table, None)
    shown = tables.view(rules, table, None, reveal=True)["revealed"]
    assert {s: part["hand"] for s, part in shown.items()} == {
        str(s): list(table.rules.hands[s]) for s in range(3)
    }
