"""Every role against every endpoint: who may do what.

Roles at one timed table in progress (three people; the one to act has run out of time):
``anonymous``; ``player`` — the seat to act (out of time, may still move); ``other_player``
— another seat at the table; ``spectator`` — logged in, not seated; ``staff`` — staff
without the moderation permission; ``moderator`` — staff with ``games.moderate``. The lobby
endpoints act on an open table hosted by ``player`` that ``other_player`` joined.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import timedelta

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import get_resolver
from django.utils import timezone
from rest_framework.test import APIClient

from games import selectors, services
from games.models import ChatMessage, Game, Report
from tests.games.helpers import make_moderator, to_act

pytestmark = pytest.mark.django_db
ROLES = ["anonymous", "player", "other_player", "spectator", "staff", "moderator"]
SEATED = {"player", "other_player"}


@dataclass
class World:
    users: dict
    game: Game
    lobby: Game
    bot_seat: int
    command: dict
    late_seat: int
    message: ChatMessage
    report: Report


def person(name: str, staff: bool = False):
    return get_user_model().objects.create(username=name, is_staff=staff)


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
        "staff": person("stan", staff=True),
        "moderator": make_moderator(person("mo")),
    }
    lobby = services.table_create(user=users["player"], ruleset="kingdoms", seats=4)
    services.table_join(game_id=lobby.id, user=users["other_player"])
    bot = services.bot_add(game_id=lobby.id, user=users["player"], level="easy")
    message = services.chat_post(game_id=game.id, user=users["third"], body="hello all")
    report = services.chat_report(message_id=message.pk, user=users["other_player"])
    command = selectors.legal_commands(Game.objects.get(pk=game.id), late)[0]
    return World(users, Game.objects.get(pk=game.id), lobby, bot.pk, command, late, message, report)


def everyone(status: int, anonymous: int = 403) -> dict[str, int]:
    return {role: (anonymous if role == "anonymous" else status) for role in ROLES}


def only(allowed: dict[str, int], others: int = 403) -> dict[str, int]:
    return {role: allowed.get(role, others) for role in ROLES}


MODERATOR_ONLY = only({"moderator": 200})
SEATED_PLAY = only({"player": 200, "other_player": 200})
AFTER_TIMEOUT = only({"player": 400, "other_player": 200})  # not on one's own seat
HOST_OR_STAFF = {"anonymous": 403, "player": 200, "other_player": 403, "spectator": 403,
                 "staff": 200, "moderator": 200}  # fmt: skip

# name: (method, path, body, expected status per role)
ENDPOINTS = {
    "rulesets": ("get", "/api/rulesets/", None, everyone(200, 200)),
    "time_controls": ("get", "/api/time-controls/", None, everyone(200, 200)),
    "table_list": ("get", "/api/tables/", None, everyone(200, 200)),
    "table_create": (
        "post", "/api/tables/", lambda w: {"ruleset": "kingdoms", "seats": 2}, everyone(201),
    ),
    "table_detail": ("get", "/api/tables/{game}/", None, everyone(200, 200)),
    "join": ("post", "/api/tables/{lobby}/join/", None,
             only({"player": 409, "other_player": 409, "spectator": 200, "staff": 200,
                   "moderator": 200})),
    "leave": ("post", "/api/tables/{lobby}/leave/", None,
              only({"player": 200, "other_player": 200, "spectator": 400, "staff": 400,
                    "moderator": 400})),
    "bot_add": ("post", "/api/tables/{lobby}/bots/", lambda w: {"level": "easy"},
                {**HOST_OR_STAFF, "player": 201, "staff": 201, "moderator": 201}),
    "bot_remove": ("delete", "/api/tables/{lobby}/bots/{bot}/", None, HOST_OR_STAFF),
    "start": ("post", "/api/tables/{lobby}/start/", None, HOST_OR_STAFF),
    "command": (
        "post", "/api/tables/{game}/commands/", lambda w: {"command": w.command},
        only({"player": 201, "other_player": 400}),
    ),
    "legal": ("get", "/api/tables/{game}/legal/", None, everyone(200, 200)),
    "events": ("get", "/api/tables/{game}/events/?after=0", None, everyone(200, 200)),
    "view": ("get", "/api/tables/{game}/view/", None, everyone(200, 200)),
    "view_at": ("get", "/api/tables/{game}/view/?at=2&spectator=1", None, everyone(200, 200)),
    "resign": ("post", "/api/tables/{game}/resign/", None, SEATED_PLAY),
    "skip": ("post", "/api/tables/{game}/skip/", lambda w: {"seat": w.late_seat}, AFTER_TIMEOUT),
    "expel": ("post", "/api/tables/{game}/expel/", lambda w: {"seat": w.late_seat},
              AFTER_TIMEOUT),
    "abort": ("post", "/api/tables/{game}/abort/", lambda w: {"reason": "test"}, MODERATOR_ONLY),
    "disconnect": ("post", "/api/tables/{game}/disconnect/", lambda w: {}, MODERATOR_ONLY),
    "kick": ("post", "/api/tables/{game}/kick/",
             lambda w: {"username": w.users["player"].username, "reason": "test"},
             MODERATOR_ONLY),
    "audit_summary": ("get", "/api/tables/{game}/audit/", None, everyone(200, 200)),
    "audit_trail": ("get", "/api/tables/{game}/audit/trail/", None,
                    only({"staff": 200, "moderator": 200})),
    "chat_read": ("get", "/api/tables/{game}/chat/", None, everyone(200, 200)),
    "chat_post": ("post", "/api/tables/{game}/chat/", lambda w: {"body": "hi"}, everyone(201)),
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
}  # fmt: skip

PAGES = {
    "table_page": ("/tables/{game}/", everyone(200, 200)),
    "audit_page_in_progress": ("/tables/{game}/audit/", only({"staff": 200, "moderator": 200})),
    "leaderboards_page": ("/leaderboard/", everyone(200, 200)),
    "leaderboard_page": ("/leaderboard/kingdoms/", everyone(200, 200)),
    # The admin sends non-staff to its login page; staff without the permission see no
    # moderation models at all.
    "admin_queue": (
        "/admin/games/report/",
        {"anonymous": 302, "player": 302, "other_player": 302, "spectator": 302,
         "staff": 403, "moderator": 200},
    ),
    "admin_records": (
        "/admin/games/moderationrecord/",
        {"anonymous": 302, "player": 302, "other_player": 302, "spectator": 302,
         "staff": 403, "moderator": 200},
    ),
}  # fmt: skip


def fill(path: str, w: World) -> str:
    return path.format(
        game=w.game.id,
        lobby=w.lobby.id,
        bot=w.bot_seat,
        message=w.message.pk,
        report=w.report.pk,
        third=w.users["third"].username,
        ruleset="kingdoms",
    )


def cases(table: dict) -> list:
    return [pytest.param(name, role, id=f"{name}-{role}") for name in table for role in ROLES]


@pytest.mark.parametrize(("endpoint", "role"), cases(ENDPOINTS))
def test_api_endpoint_by_role(world, endpoint, role):
    method, path, body, expected = ENDPOINTS[endpoint]
    client = APIClient()
    if role != "anonymous":
        client.force_authenticate(world.users[role])
    data = body(world) if body else None
    response = getattr(client, method)(fill(path, world), data, format="json")
    assert response.status_code == expected[role], response.content[:300]
    if response.status_code >= 400:
        assert {"code", "message"} <= set(response.json()), "errors are JSON {code, message}"


@pytest.mark.parametrize(("page", "role"), cases(PAGES))
def test_page_by_role(world, page, role):
    path, expected = PAGES[page]
    client = Client()
    if role != "anonymous":
        client.force_login(world.users[role])
    assert client.get(fill(path, world)).status_code == expected[role]


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
