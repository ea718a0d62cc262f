"""Every role against every endpoint: who may do what.

Roles at one timed table in progress (three people; the one to act has run out of time):
``anonymous``; ``player`` — the seat to act (out of time, may still move); ``other_player``
— another seat at the table; ``spectator`` — logged in, not seated; ``muted`` — logged in,
muted by a moderator; ``banned`` — an account a moderator banned, still holding a session
from before; ``staff`` — staff without the moderation permission; ``moderator`` — staff
with ``games.moderate``. The lobby endpoints act on an open table hosted by ``player``
that ``other_player`` joined.

Covered: the REST API, the pages, the WebSocket endpoints (game stream, chat, lobby) and
every moderation action of the Django admin.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import timedelta

import pytest
from asgiref.sync import async_to_sync, sync_to_async
from channels.auth import AuthMiddlewareStack
from channels.routing import URLRouter
from channels.testing import WebsocketCommunicator
from django.conf import settings
from django.contrib import admin
from django.contrib.auth import get_user_model
from django.contrib.auth.models import Permission
from django.test import Client
from django.urls import get_resolver
from django.utils import timezone
from rest_framework.test import APIClient

from community import services as community_services
from community.models import ChatMessage, ModerationRecord, Report
from games import selectors, services
from games.models import Game
from games.signals import HOST_ACTION
from kingdom.routing import websocket_urlpatterns
from tests.games.helpers import make_moderator, to_act

pytestmark = pytest.mark.django_db
ROLES = [
    "anonymous",
    "player",
    "other_player",
    "spectator",
    "muted",
    "banned",
    "staff",
    "moderator",
]
SEATED = {"player", "other_player"}
# Whom the server no longer knows: a ban deactivates the account, and Django's session
# backend then treats its old session as anonymous.
UNKNOWN = {"anonymous", "banned"}
# As deployed (kingdom/asgi.py): the session cookie decides who a socket belongs to.
ws_app = AuthMiddlewareStack(URLRouter(websocket_urlpatterns))


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
        "muted": person("mu"),
        "banned": person("bo"),
        "staff": person("stan", staff=True),
        "moderator": make_moderator(person("mo")),
    }
    community_services.mute_player(
        player=users["muted"], moderator=users["moderator"], reason="spam"
    )
    community_services.ban_account(
        player=users["banned"], moderator=users["moderator"], reason="cheat"
    )
    lobby = services.table_create(user=users["player"], ruleset="kingdoms", seats=4)
    services.table_join(game_id=lobby.id, user=users["other_player"])
    bot = services.bot_add(game_id=lobby.id, user=users["player"], level="easy")
    message = community_services.chat_post(game_id=game.id, user=users["third"], body="hello all")
    report = community_services.chat_report(message_id=message.pk, user=users["other_player"])
    command = selectors.legal_commands(Game.objects.get(pk=game.id), late)[0]
    return World(users, Game.objects.get(pk=game.id), lobby, bot.pk, command, late, message, report)


def everyone(status: int, anonymous: int = 403) -> dict[str, int]:
    return {role: (anonymous if role in UNKNOWN else status) for role in ROLES}


def only(allowed: dict[str, int], others: int = 403) -> dict[str, int]:
    return {role: allowed.get(role, others) for role in ROLES}


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
    "audit_trail": ("get", "/api/tables/{game}/audit/trail/", None,
                    only({"staff": 200, "moderator": 200})),
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
}  # fmt: skip

PAGES = {
    "lobby_page": ("/", everyone(200, 200)),
    "profile_page": ("/players/{third}/", everyone(200, 200)),
    "table_page": ("/tables/{game}/", everyone(200, 200)),
    "audit_page_in_progress": ("/tables/{game}/audit/", only({"staff": 200, "moderator": 200})),
    "leaderboards_page": ("/leaderboard/", everyone(200, 200)),
    "leaderboard_page": ("/leaderboard/kingdoms/", everyone(200, 200)),
    # The admin sends non-staff to its login page; staff without the permission see no
    # moderation models at all.
    "admin_queue": ("/admin/games/report/", only({"staff": 403, "moderator": 200}, 302)),
    "admin_records": (
        "/admin/games/moderationrecord/", only({"staff": 403, "moderator": 200}, 302),
    ),
    "admin_games": ("/admin/games/game/", only({"staff": 403, "moderator": 200}, 302)),
    "admin_events": ("/admin/games/gameevent/", only({"staff": 403, "moderator": 200}, 302)),
    "admin_players": ("/admin/auth/user/", only({"staff": 403, "moderator": 200}, 302)),
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


def api_client(world: World, role: str) -> APIClient:
    client = APIClient()
    if role == "banned":
        # A real session, not force_authenticate (which skips the is_active check).
        client.force_login(world.users[role])
    elif role != "anonymous":
        client.force_authenticate(world.users[role])
    return client


def web_client(world: World, role: str) -> Client:
    client = Client()
    if role != "anonymous":
        client.force_login(world.users[role])
    return client


@pytest.mark.parametrize(("endpoint", "role"), cases(ENDPOINTS))
def test_api_endpoint_by_role(world, endpoint, role):
    method, path, body, expected = ENDPOINTS[endpoint]
    client = api_client(world, role)
    data = body(world) if body else None
    response = getattr(client, method)(fill(path, world), data, format="json")
    assert response.status_code == expected[role], response.content[:300]
    if response.status_code >= 400:
        assert {"code", "message"} <= set(response.json()), "errors are JSON {code, message}"


@pytest.mark.parametrize(("page", "role"), cases(PAGES))
def test_page_by_role(world, page, role):
    path, expected = PAGES[page]
    response = web_client(world, role).get(fill(path, world))
    assert response.status_code == expected[role]
    if expected[role] == 302:
        assert response["Location"].startswith("/admin/login/")


@pytest.mark.parametrize("role", ROLES)
def test_the_lobby_page_knows_who_is_logged_in_and_not_a_banned_account(world, role):
    page = web_client(world, role).get("/").content.decode()
    name = "" if role in UNKNOWN else world.users[role].username
    assert f'data-user="{name}"' in page


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


# ---- WebSockets -------------------------------------------------------------------------
def socket(world: World, role: str, path: str) -> WebsocketCommunicator:
    """A socket opened with ``role``'s session cookie, through the deployed auth stack."""
    headers = []
    if role != "anonymous":
        client = web_client(world, role)
        cookie = client.cookies[settings.SESSION_COOKIE_NAME].value
        headers = [(b"cookie", f"{settings.SESSION_COOKIE_NAME}={cookie}".encode())]
    return WebsocketCommunicator(ws_app, fill(path, world), headers=headers)


def seat_of(world: World, role: str) -> int | None:
    if role not in SEATED:
        return None
    return world.game.seats.get(user=world.users[role]).number


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("role", ROLES)
def test_game_stream_by_role_sends_only_the_roles_own_seat(world, role):
    expected_seat = seat_of(world, role)
    expected_view = selectors.game_view(world.game, expected_seat)["state"]

    ws = socket(world, role, "/ws/games/{game}/?after=0")

    async def scenario():
        connected, _ = await ws.connect()
        assert connected, "anyone may watch a game"
        first = await ws.receive_json_from(timeout=5)
        await ws.send_json_to({"type": "ping"})
        pong = await ws.receive_json_from(timeout=5)
        await ws.disconnect()
        return first, pong

    first, pong = async_to_sync(scenario)()
    assert first["your_seat"] == expected_seat
    assert first["view"] == expected_view, "redacted for this viewer, nobody else's secrets"
    assert [e["seq"] for e in first["events"]] == list(range(1, world.game.head_seq + 1))
    if expected_seat is None:
        assert first["legal"] == [], "no commands for a seat one does not hold"
    assert pong == {"type": "pong", "head": world.game.head_seq}


# What a chat socket answers to "say" and "report", per role (the type or the error code).
CHAT_SAY = {**{role: "message" for role in ROLES}, "anonymous": "not_authenticated",
            "banned": "not_authenticated", "muted": "muted"}  # fmt: skip
# A muted player may still report a message to the moderators.
CHAT_REPORT = {**{role: "reported" for role in ROLES}, "anonymous": "not_authenticated",
               "banned": "not_authenticated"}  # fmt: skip


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("role", ROLES)
def test_chat_socket_by_role(world, role):
    ws = socket(world, role, "/ws/games/{game}/chat/")

    async def scenario():
        connected, _ = await ws.connect()
        assert connected, "anyone may read a table's chat"
        history = await ws.receive_json_from(timeout=5)
        await ws.send_json_to({"type": "say", "body": f"hi from {role}"})
        said = await ws.receive_json_from(timeout=5)
        await ws.send_json_to({"type": "report", "message": world.message.pk, "reason": "x"})
        reported = await ws.receive_json_from(timeout=5)
        await ws.disconnect()
        return history, said, reported

    history, said, reported = async_to_sync(scenario)()
    assert [m["body"] for m in history["messages"]] == ["hello all"]
    for answer, expected in ((said, CHAT_SAY[role]), (reported, CHAT_REPORT[role])):
        if answer["type"] == "error":
            assert answer["code"] == expected and answer["message"]
        else:
            assert answer["type"] == expected
    said_lines = ChatMessage.objects.filter(body=f"hi from {role}")
    assert said_lines.exists() == (CHAT_SAY[role] == "message")
    if CHAT_SAY[role] == "message":
        assert said["message"]["author"] == world.users[role].username
    reporters = {world.users["other_player"].pk}  # the world's own report
    if CHAT_REPORT[role] == "reported":
        reporters.add(world.users[role].pk)
    assert set(Report.objects.values_list("reporter", flat=True)) == reporters
    if CHAT_REPORT[role] == "reported":
        report = Report.objects.get(pk=reported["message"])
        assert (report.reporter, report.message) == (world.users[role], world.message)


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("role", ROLES)
def test_lobby_socket_by_role_tells_of_new_tables(world, role):
    ws = socket(world, role, "/ws/lobby/")

    async def scenario():
        connected, _ = await ws.connect()
        assert connected, "anyone may watch the lobby"
        table = await sync_to_async(services.table_create)(
            user=world.users["third"], ruleset="kingdoms", seats=2
        )
        news = await ws.receive_json_from(timeout=5)
        await ws.disconnect()
        return table, news

    table, news = async_to_sync(scenario)()
    assert news["type"] == "table" and news["table"]["id"] == str(table.id)


@pytest.mark.django_db(transaction=True)
def test_a_banned_player_who_held_a_seat_watches_the_game_as_a_spectator(world):
    """Banned after the game: the old session no longer opens a stream as the seat."""
    player = world.users["other_player"]
    seat = seat_of(world, "other_player")
    community_services.ban_account(
        player=player, moderator=world.users["moderator"], reason="cheat"
    )
    world.users["gone"] = player

    ws = socket(world, "gone", "/ws/games/{game}/?after=0")

    async def scenario():
        await ws.connect()
        first = await ws.receive_json_from(timeout=5)
        await ws.disconnect()
        return first

    first = async_to_sync(scenario)()
    game = Game.objects.get(pk=world.game.id)
    assert seat is not None and first["your_seat"] is None
    assert first["view"] == selectors.game_view(game, None)["state"]


@pytest.mark.django_db(transaction=True)
def test_an_open_game_stream_stops_sending_seat_secrets_once_its_player_is_banned(world):
    player = world.users["other_player"]
    seat = seat_of(world, "other_player")

    ws = socket(world, "other_player", "/ws/games/{game}/?after=0")

    async def scenario():
        await ws.connect()
        before = await ws.receive_json_from(timeout=5)
        await sync_to_async(community_services.ban_account)(
            player=player, moderator=world.users["moderator"], reason="cheat"
        )
        after = await ws.receive_json_from(timeout=5)  # the seat_kicked event
        await ws.disconnect()
        return before, after

    before, after = async_to_sync(scenario)()
    assert before["your_seat"] == seat
    assert after["your_seat"] is None
    assert "seat_kicked" in [e["type"] for e in after["events"]]
    game = Game.objects.get(pk=world.game.id)
    assert after["view"] == selectors.game_view(game, None)["state"]


# ---- the Django admin's moderation actions --------------------------------------------
# name: (changelist, action, the selected ids, the form, the record it writes)
ADMIN_ACTIONS = {
    "message_hide": ("community/chatmessage", "hide_messages", lambda w: [w.message.pk], {},
                     "hide_message"),
    "message_mute": ("community/chatmessage", "mute_authors", lambda w: [w.message.pk],
                     {"minutes": 5}, "mute"),
    "message_ban": ("community/chatmessage", "ban_authors", lambda w: [w.message.pk], {}, "ban"),
    "report_resolve": ("community/report", "resolve_reports", lambda w: [w.report.pk], {},
                       "resolve_report"),
    "report_dismiss": ("community/report", "dismiss_reports", lambda w: [w.report.pk], {},
                       "dismiss_report"),
    "report_hide": ("community/report", "hide_and_resolve", lambda w: [w.report.pk], {},
                    "hide_message"),
    "report_mute": ("community/report", "mute_authors", lambda w: [w.report.pk], {}, "mute"),
    "report_kick": ("community/report", "kick_authors", lambda w: [w.report.pk], {}, "kick"),
    "report_ban": ("community/report", "ban_authors", lambda w: [w.report.pk], {}, "ban"),
    "seat_kick": ("games/seat", "kick_players",
                  lambda w: [w.game.seats.get(user=w.users["third"]).pk], {}, "kick"),
    "game_abort": ("games/game", "abort_games", lambda w: [w.game.pk], {}, "abort"),
    "player_ban": ("auth/user", "ban_accounts", lambda w: [w.users["third"].pk], {}, "ban"),
    "player_unban": ("auth/user", "lift_bans", lambda w: [w.users["banned"].pk], {}, "unban"),
    "player_mute": ("auth/user", "mute_players", lambda w: [w.users["third"].pk], {}, "mute"),
    "player_unmute": ("auth/user", "unmute_players", lambda w: [w.users["muted"].pk], {},
                      "unmute"),
}  # fmt: skip


@pytest.mark.parametrize(("name", "role"), cases(ADMIN_ACTIONS))
def test_admin_moderation_action_by_role(world, name, role):
    changelist, action, ids, form, recorded = ADMIN_ACTIONS[name]
    before = set(ModerationRecord.objects.values_list("pk", flat=True))
    response = web_client(world, role).post(
        f"/admin/{changelist}/",
        {"action": action, "_selected_action": ids(world), "apply": "1", "reason": "why"} | form,
    )
    done = ModerationRecord.objects.exclude(pk__in=before)
    if role == "moderator":
        # Done, then back to the changelist, with the record of who and why.
        assert response.status_code == 302 and response["Location"] == f"/admin/{changelist}/"
        assert {(r.action, r.moderator_name, r.reason) for r in done} >= {(recorded, "mo", "why")}
    else:
        if role == "staff":
            assert response.status_code == 403, "staff alone may not even see these lists"
        else:
            assert response.status_code == 302
            assert response["Location"].startswith("/admin/login/")
        assert not done.exists()


def test_every_moderation_action_of_the_admin_is_in_the_matrix():
    found = set()
    for model, model_admin in admin.site._registry.items():
        for action in model_admin.actions or []:
            func = getattr(model_admin, action) if isinstance(action, str) else action
            if "moderate" in getattr(func, "allowed_permissions", ()):
                found.add((f"{model._meta.app_label}/{model._meta.model_name}", func.__name__))
    assert found == {(changelist, action) for changelist, action, *_ in ADMIN_ACTIONS.values()}


def test_staff_who_may_view_games_are_still_not_offered_the_abort_action(world):
    staff = world.users["staff"]
    staff.user_permissions.add(Permission.objects.get(codename="view_game"))
    client = web_client(world, "staff")
    changelist = client.get("/admin/games/game/")
    assert changelist.status_code == 200 and b"abort_games" not in changelist.content
    client.post(
        "/admin/games/game/",
        {"action": "abort_games", "_selected_action": [world.game.pk], "apply": "1",
         "reason": "x"},
    )  # fmt: skip
    assert Game.objects.get(pk=world.game.id).status == Game.Status.ACTIVE
    assert not ModerationRecord.objects.filter(action="abort").exists()
