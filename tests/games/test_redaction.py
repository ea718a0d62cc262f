"""No payload to seat A carries seat B's secrets, the server-only facts, or the seed.

Whole all-bot games are played through the service; then, event by event, every seat's
view and redacted events are checked against every secret not yet public at that point.
"""

from __future__ import annotations

import json

import pytest

from games import selectors, services
from games import table as tables
from games.models import Game, GameEvent
from games.rules import all_rulesets, get_ruleset
from games.store import to_event
from tests.games.helpers import table_with_bots

pytestmark = pytest.mark.django_db(transaction=True)
RULESETS = [r.key for r in all_rulesets()]


def strings_in(value) -> set[str]:
    if isinstance(value, str):
        return {value}
    if isinstance(value, dict):
        return set().union(*(strings_in(v) for v in value.values())) if value else set()
    if isinstance(value, list | tuple):
        return set().union(*(strings_in(v) for v in value)) if value else set()
    return set()


def play_bot_game(user, ruleset: str, players: int) -> Game:
    game = table_with_bots(user, ruleset=ruleset, bots=players, join=False, level="easy")
    services.game_start(game_id=game.id, user=user)
    game.refresh_from_db()
    return game


@pytest.mark.parametrize("ruleset", RULESETS)
def test_no_seat_ever_sees_another_seats_secrets(make_user, ruleset):
    rules = get_ruleset(ruleset)
    players = max(rules.min_players, 3) if rules.max_players >= 3 else rules.min_players
    game = play_bot_game(make_user(), ruleset, players)
    assert game.status == Game.Status.FINISHED
    rows = list(GameEvent.objects.filter(game=game).order_by("seq"))
    public_so_far: set[str] = set()
    private_so_far: dict[str, set[str]] = {}
    table = None
    for row in rows:
        table = tables.apply(rules, table, to_event(row))
        public_so_far |= strings_in(row.public)
        for seat, data in row.private.items():
            private_so_far.setdefault(seat, set()).update(strings_in(data))
        if table.rules is None:
            continue
        for seat in [None, *range(players)]:
            mine = private_so_far.get(str(seat), set()) if seat is not None else set()
            others = (
                set().union(*(v for k, v in private_so_far.items() if k != str(seat)))
                if private_so_far
                else set()
            )
            secret = others - public_so_far - mine
            payload = [tables.view(rules, table, seat), selectors.redact(row, seat)]
            if row.type != tables.GAME_FINISHED:
                assert game.seed not in json.dumps(payload)
            # Values only: a key such as the option name "wizard" is no secret.
            leaked = secret & strings_in(payload)
            assert not leaked, f"seat {seat} sees {leaked} at event {row.seq} ({row.type})"


@pytest.mark.parametrize("ruleset", RULESETS)
def test_server_only_facts_never_leave_the_server(make_user, ruleset):
    rules = get_ruleset(ruleset)
    game = play_bot_game(make_user(), ruleset, rules.min_players)
    for seat in [None, *range(rules.min_players)]:
        events = selectors.events_after(game, seat, 0, limit=100000)
        for event, row in zip(
            events, GameEvent.objects.filter(game=game).order_by("seq"), strict=True
        ):
            server_only = row.private.get("-1")
            if server_only:
                assert json.dumps(server_only)[1:-1] not in json.dumps(event["data"])
