"""Every role against every REST endpoint."""

from __future__ import annotations

import re

import pytest
from django.urls import get_resolver

from community.models import ModerationRecord
from games.signals import HOST_ACTION
from tests.games.permissions.helpers import api_client, cases, everyone, fill, only

pytestmark = pytest.mark.django_db


MODERATOR_ONLY = only({"moderator": 200})
SEATED_PLAY = only({"player": 200, "other_player": 200})
AFTER_TIMEOUT = only({"player": 400, "other_player": 200})  # not on one's own seat
# Staff alone may not act at another's table; a moderator may (and it is recorded).
HOST_OR_MODERATOR = only({"player": 200, "moderator": 200})


# name: (method, path, body, expected status per role)
ENDPOINTS = {
    "rulesets": ("get", "/api/rulesets/", None, everyone(200, 200)),
    "board_sections": (
        "get", "/api/rulesets/kingdom-builder/sections/", None, everyone(200, 200),
    ),
    "signing_keys": ("get", "/api/keys/", None, everyone(200, 200)),
    "time_controls": ("get", "/api/time-controls/", None, everyone(200, 200)),
    "table_list": ("get", "/api/tables/", None, everyone(200, 200)),
    "table_create": (
        "post", "/api/tables/", lambda w: {"ruleset": "kingdoms", "seats": 2}, everyone(201),
    ),
    "table_detail": ("get", "/api/tables/{game}/", None, everyone(200, 200)),
    "join": ("post", "/api/tables/{lobby}/join/", None,
             only({"player": 409, "other_player": 409, "spectator": 200, "muted": 200,
                   "staff": 200, "moderator": 200})),
    "leave": ("post", "/api/tables/{lobby}/leave/", None,
              only({"player": 200, "other_player": 200, "spectator": 400, "muted": 400,
                    "staff": 400, "moderator": 400})),
    "bot_add": ("post", "/api/tables/{lobby}/bots/", lambda w: {"level": "easy"},
                only({"player": 201, "moderator": 201})),
    "bot_remove": ("delete", "/api/tables/{lobby}/bots/{bot}/", None, HOST_OR_MODERATOR),
    "start": ("post", "/api/tables/{lobby}/start/", None, HOST_OR_MODERATOR),
    "command": (
        "post", "/api/tables/{game}/commands/", lambda w: {"command": w.command},
        only({"player": 201, "other_player": 400}),
    ),
    "legal": ("get", "/api/tables/{game}/legal/", None, everyone(200, 200)),
    "events": ("get", "/api/tables/{game}/events/?after=0", None, everyone(200, 200)),
    "view": ("get", "/api/tables/{game}/view/", None, everyone(200, 200)),
    "view_at": ("get", "/api/tables/{game}/view/?at=2&spectator=1", None, everyone(200, 200)),
    "resign": ("post", "/api/tables/{game}/resign/", None, SEATED_PLAY),
    # The game in progress: its players are told to wait for the end; nobody else may ask.
    "rematch": ("post", "/api/tables/{game}/rematch/", None,
                only({"player": 409, "other_player": 409})),
    "skip": ("post", "/api/tables/{game}/skip/", lambda w: {"seat": w.late_seat}, AFTER_TIMEOUT),
    "expel": ("post", "/api/tables/{game}/expel/", lambda w: {"seat": w.late_seat},
              AFTER_TIMEOUT),
    "abort": ("post", "/api/tables/{game}/abort/", lambda w: {"reason": "test"}, MODERATOR_ONLY),
    "disconnect": ("post", "/api/tables/{game}/disconnect/", lambda w: {"reason": "test"},
                   MODERATOR_ONLY),
    "kick": ("post", "/api/tables/{game}/kick/",
             lambda w: {"username": w.users["player"].username, "reason": "test"},
             MODERATOR_ONLY),
    "audit_summary": ("get", "/api/tables/{game}/audit/", None, everyone(200, 200)),
    # A game in progress is audited by staff only: refused to anyone else alike (403).
    "audit_trail": ("get", "/api/tables/{game}/audit/trail/", None,
                    only({"staff": 200, "moderator": 200}, anonymous=403)),
    "chat_read": ("get", "/api/tables/{game}/chat/", None, everyone(200, 200)),
    "chat_post": ("post", "/api/tables/{game}/chat/", lambda w: {"body": "hi"},
                  {**everyone(201), "muted": 403}),
    "chat_report": ("post", "/api/chat/{message}/report/", lambda w: {"reason": "rude"},
                    everyone(201)),
    "chat_hide": ("post", "/api/chat/{message}/hide/", lambda w: {"reason": "rude"},
                  MODERATOR_ONLY),
    "mute": ("post", "/api/players/{third}/mute/", lambda w: {"reason": "spam"},
             only({"moderator": 201})),
    "unmute": ("post", "/api/players/{third}/unmute/", lambda w: {"reason": "ok"},
               MODERATOR_ONLY),
    "ban": ("post", "/api/players/{third}/ban/", lambda w: {"reason": "cheat"}, MODERATOR_ONLY),
    "unban": ("post", "/api/players/{third}/unban/", lambda w: {"reason": "ok"}, MODERATOR_ONLY),
    "queue": ("get", "/api/moderation/reports/", None, MODERATOR_ONLY),
    "records": ("get", "/api/moderation/records/", None, MODERATOR_ONLY),
    "resolve": ("post", "/api/moderation/reports/{report}/resolve/", None, MODERATOR_ONLY),
    "dismiss": ("post", "/api/moderation/reports/{report}/dismiss/", None, MODERATOR_ONLY),
    "leaderboard": ("get", "/api/leaderboards/{ruleset}/", None, everyone(200, 200)),
    "player_ratings": ("get", "/api/players/{third}/ratings/", None, everyone(200, 200)),
    "ws_ticket": ("post", "/api/auth/ws-ticket/", None, everyone(201)),
    "token_revoke": ("post", "/api/auth/token/revoke/", None, everyone(204)),
    # challenges and the bot API (docs/bot-api.md)
    "challenge_list": ("get", "/api/challenge/", None, everyone(200)),
    "challenge": ("post", "/api/challenge/{third}/", lambda w: {"ruleset": "kingdoms"},
                  {**everyone(201), "muted": 403}),
    "challenge_accept": ("post", "/api/challenge/{challenge}/accept/", None,
                         only({"spectator": 200})),
    "challenge_decline": ("post", "/api/challenge/{challenge}/decline/", None,
                          only({"spectator": 200})),
    "challenge_cancel": ("post", "/api/challenge/{challenge}/cancel/", None,
                         only({"other_player": 200})),
    "stream_event": ("get", "/api/stream/event/", None, everyone(200)),
    "stream_game": ("get", "/api/bot/game/stream/{game}/", None, everyone(200)),
    "bot_move": (
        "post", "/api/bot/game/{game}/move/", lambda w: {"command": w.command},
        only({"player": 201, "other_player": 400}),
    ),
    "bot_resign": ("post", "/api/bot/game/{game}/resign/", None, SEATED_PLAY),
    # Nobody has moved yet (the clock's timeout is the system's).
    "bot_abort": ("post", "/api/bot/game/{game}/abort/", None, SEATED_PLAY),
    "bot_chat": ("post", "/api/bot/game/{game}/chat/", lambda w: {"body": "hi"},
                 {**everyone(201), "muted": 403}),
    # Only an account that never sat at a table becomes a bot account.
    "bot_upgrade": ("post", "/api/bot/account/upgrade/", None,
                    only({"player": 409, "other_player": 409, "spectator": 200, "muted": 200,
                          "staff": 200, "moderator": 200})),
    # quick match and the lobby's counts
    "quick_match_state": ("get", "/api/quick-match/", None, everyone(200)),
    "quick_match": ("post", "/api/quick-match/",
                    lambda w: {"ruleset": "kingdom-cards", "seats": 5}, everyone(200)),
    "quick_match_leave": ("delete", "/api/quick-match/", None, everyone(204)),
    "lobby_counts": ("get", "/api/lobby/counts/", None, everyone(200, 200)),
    "player_block": ("post", "/api/players/{third}/block/", None, everyone(200)),
    "players": ("get", "/api/players/", None, everyone(200, 200)),
}  # fmt: skip


@pytest.mark.parametrize(("endpoint", "role"), cases(ENDPOINTS))
def test_api_endpoint_by_role(world, endpoint, role):
    method, path, body, expected = ENDPOINTS[endpoint]
    client = api_client(world, role)
    data = body(world) if body else None
    response = getattr(client, method)(fill(path, world), data, format="json")
    assert response.status_code == expected[role], response.content[:300]
    if response.status_code >= 400:
        assert {"code", "message"} <= set(response.json()), "errors are JSON {code, message}"


def test_every_api_route_is_in_the_matrix():
    resolver = get_resolver()
    routes = set()

    def walk(patterns, prefix=""):
        for pattern in patterns:
            if hasattr(pattern, "url_patterns"):
                walk(pattern.url_patterns, prefix + str(pattern.pattern))
            else:
                routes.add(prefix + str(pattern.pattern))

    walk(resolver.url_patterns)
    api = {r for r in routes if r.startswith("api/") and "schema" not in r and "docs" not in r}
    api -= {"api/auth/signup/", "api/auth/token/"}  # account creation: tests/games/test_api.py
    covered = {path.split("?")[0] for _, path, _, _ in ENDPOINTS.values()}

    routes_shapes = {re.sub(r"<[^>]+>", "*", r).strip("/") for r in api}
    covered_shapes = {re.sub(r"\{[^}]+\}", "*", p).strip("/") for p in covered}
    assert routes_shapes <= covered_shapes


@pytest.mark.parametrize("endpoint", ["bot_add", "bot_remove", "start"])
@pytest.mark.parametrize("role", ["player", "staff", "moderator"])
def test_only_a_moderator_acting_at_another_hosts_table_leaves_a_record(world, endpoint, role):
    method, path, body, _expected = ENDPOINTS[endpoint]
    client = api_client(world, role)
    getattr(client, method)(fill(path, world), body(world) if body else None, format="json")
    records = ModerationRecord.objects.filter(action=HOST_ACTION)
    if role == "moderator":
        (record,) = records
        assert (record.game_id, record.moderator_name) == (world.lobby.id, "mo")
        host = world.users["player"].username
        assert record.reason.endswith(f" at {host}'s table"), "says what was done, where"
    else:
        assert not records.exists(), "the host acting at their own table, or a refusal"
