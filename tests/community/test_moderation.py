"""Moderation: each action by a moderator, recorded with who and why; kicks and aborts
in the game's log too; the report queue; bans and mutes taking effect; the admin's
read-only logs."""

from __future__ import annotations

import pytest
from asgiref.sync import async_to_sync, sync_to_async
from channels.routing import URLRouter
from channels.testing import WebsocketCommunicator
from django.contrib import admin
from django.contrib.auth import get_user_model
from django.test import RequestFactory
from rest_framework.test import APIClient

from audit import trail as audit_trail
from audit.stored import audit_game
from community import services as community_services
from community.models import ChatMessage, ModerationRecord, Mute, Report
from games import services
from games.errors import ServiceError
from games.models import Game, GameEvent, Snapshot
from games.services.moderation import close_streams
from games.signals import DISCONNECT, HOST_ACTION
from kingdom.routing import websocket_urlpatterns
from tests.games.helpers import humans_table, make_moderator, play_out

pytestmark = pytest.mark.django_db(transaction=True)
Action = ModerationRecord.Action


@pytest.fixture
def mod(make_user):
    return make_moderator(make_user("mod"))


@pytest.fixture
def trio(make_user):
    return [make_user("ana"), make_user("bob"), make_user("cy")]


@pytest.fixture
def four(trio, make_user):
    """Four at the table, so two can be removed and the game still goes on."""
    return [*trio, make_user("dee")]


def record_of(action: str) -> ModerationRecord:
    return ModerationRecord.objects.get(action=action)


# ---- kick -------------------------------------------------------------------------------
def test_a_kicked_players_seat_is_played_by_a_bot_and_the_game_finishes(trio, mod):
    game = humans_table(trio)
    seat = game.seats.get(user=trio[1])
    services.kick_player(game_id=game.id, moderator=mod, player=trio[1], reason="abusive chat")
    seat.refresh_from_db()
    assert seat.kicked and seat.bot_level == services.TAKEOVER_LEVEL
    kicked = GameEvent.objects.get(game=game, type="seat_kicked")
    assert kicked.actor == "staff:mod"
    assert kicked.public == {"seat": seat.number, "reason": "abusive chat"}
    with pytest.raises(ServiceError) as err:
        services.game_submit(game_id=game.id, user=trio[1], command={"type": "pass"})
    assert err.value.code == "seat_departed"
    game = play_out(game, [trio[0], trio[2]])
    assert game.status == Game.Status.FINISHED
    assert GameEvent.objects.filter(game=game, actor=f"bot:{seat.number}").exists()
    assert game.outcome["ranking"][-1] == [seat.number]
    assert audit_game(game).passed, audit_game(game).problems


def test_kicking_from_an_open_table_frees_the_seat(trio, mod):
    game = services.table_create(user=trio[0], ruleset="kingdoms", seats=3)
    services.table_join(game_id=game.id, user=trio[1])
    services.kick_player(game_id=game.id, moderator=mod, player=trio[1], reason="spam")
    assert not game.seats.filter(user=trio[1]).exists()
    assert record_of(Action.KICK).event_seq is None


def test_kicking_needs_a_reason_and_a_seated_player(trio, mod):
    game = humans_table(trio[:2])
    with pytest.raises(ServiceError) as err:
        services.kick_player(game_id=game.id, moderator=mod, player=trio[0], reason=" ")
    assert err.value.code == "reason_required"
    with pytest.raises(ServiceError) as err:
        services.kick_player(game_id=game.id, moderator=mod, player=trio[2], reason="x")
    assert err.value.code == "not_seated"


# ---- every action is on the record ----------------------------------------------------
def test_every_moderation_action_appears_in_the_audit_trail_with_its_moderator(four, mod):
    ana, bob, cy, _dee = four
    game = humans_table(four)
    line = community_services.chat_post(game_id=game.id, user=bob, body="rude words")
    report = community_services.chat_report(message_id=line.pk, user=ana, reason="rude")
    other = community_services.chat_report(
        message_id=community_services.chat_post(game_id=game.id, user=cy, body="hi").pk,
        user=ana,
        reason="mistake",
    )
    community_services.hide_message(message_id=line.pk, moderator=mod, reason="insult")
    community_services.close_report(
        report_id=report.pk, moderator=mod, resolved=True, note="hidden"
    )
    community_services.close_report(report_id=other.pk, moderator=mod, resolved=False, note="fine")
    community_services.mute_player(player=bob, moderator=mod, reason="insults", minutes=60)
    community_services.unmute_player(player=bob, moderator=mod, reason="apologised")
    services.kick_player(game_id=game.id, moderator=mod, player=cy, reason="threats")
    community_services.ban_account(player=bob, moderator=mod, reason="repeated insults")
    community_services.lift_ban(player=bob, moderator=mod, reason="appeal accepted")
    close_streams(game_id=game.id, moderator=mod, reason="stuck clients")
    services.game_abort(game_id=game.id, staff_user=mod, reason="the table fell apart")
    waiting = services.table_create(user=ana, ruleset="kingdoms", seats=3)
    services.bot_add(game_id=waiting.id, user=mod, level="easy")  # at ana's table

    records = ModerationRecord.objects.all()
    assert {r.action for r in records} == set(Action.values)
    assert all(r.moderator_name == "mod" and r.moderator == mod for r in records)
    assert record_of(Action.HIDE_MESSAGE).reason == "insult"
    assert record_of(Action.BAN).target_user == bob
    # Actions on the game are events in its log, by the moderator, linked from the record.
    game_events = GameEvent.objects.filter(game=game, actor="staff:mod").order_by("seq")
    assert [e.type for e in game_events] == ["seat_kicked", "seat_kicked", "game_aborted"]
    kick_seqs = {r.event_seq for r in records.filter(action=Action.KICK)}
    assert kick_seqs == {e.seq for e in game_events if e.type == "seat_kicked"}
    assert record_of(Action.ABORT).event_seq == game_events.last().seq
    # ...and on the game's audit page.
    trail = audit_trail.audit_report(Game.objects.get(pk=game.id))
    assert {m["moderator"] for m in trail["moderation"]} == {"mod"}
    assert {m["action"] for m in trail["moderation"]} >= {
        "kick",
        "abort",
        "hide_message",
        "disconnect",
    }
    staff_lines = [e for e in trail["timeline"] if e["actor"] == "staff:mod"]
    assert len(staff_lines) == 3
    assert audit_game(Game.objects.get(pk=game.id)).passed


def test_moderators_only(trio, make_user):
    staff = make_user("staff", staff=True)
    game = humans_table(trio[:2])
    line = community_services.chat_post(game_id=game.id, user=trio[0], body="hello")
    attempts = [
        lambda who: community_services.hide_message(message_id=line.pk, moderator=who, reason="x"),
        lambda who: community_services.mute_player(player=trio[0], moderator=who, reason="x"),
        lambda who: services.kick_player(
            game_id=game.id, moderator=who, player=trio[0], reason="x"
        ),
        lambda who: community_services.ban_account(player=trio[0], moderator=who, reason="x"),
        lambda who: services.game_abort(game_id=game.id, staff_user=who, reason="x"),
        lambda who: close_streams(game_id=game.id, moderator=who, reason="x"),
    ]
    for actor in (trio[1], staff):
        for attempt in attempts:
            with pytest.raises(ServiceError) as err:
                attempt(actor)
            assert err.value.status == 403
    assert not ModerationRecord.objects.exists()


# ---- abort and closing sockets need a reason -------------------------------------------
def test_aborting_needs_a_reason_from_the_service_and_the_api(trio, mod):
    game = humans_table(trio[:2])
    waiting = services.table_create(user=trio[2], ruleset="kingdoms", seats=2)
    for table in (game, waiting):
        for reason in ("", "   "):
            with pytest.raises(ServiceError) as err:
                services.game_abort(game_id=table.id, staff_user=mod, reason=reason)
            assert (err.value.code, err.value.status) == ("reason_required", 400)
    client = APIClient()
    client.force_authenticate(mod)
    for body in ({}, {"reason": ""}, {"reason": "  "}):
        response = client.post(f"/api/tables/{game.id}/abort/", body, format="json")
        assert response.status_code == 400
        assert response.json()["code"] == "invalid" and "reason" in response.json()["message"]
    assert Game.objects.get(pk=game.id).status == Game.Status.ACTIVE
    assert Game.objects.get(pk=waiting.id).status == Game.Status.OPEN
    assert not GameEvent.objects.filter(type="game_aborted").exists()
    assert not ModerationRecord.objects.exists()
    response = client.post(f"/api/tables/{game.id}/abort/", {"reason": "bug"}, format="json")
    assert response.status_code == 200 and response.json()["status"] == "aborted"
    assert record_of(Action.ABORT).reason == "bug"


def test_closing_a_games_sockets_is_recorded_with_who_and_why(trio, mod, make_user):
    game = humans_table(trio[:2])
    client = APIClient()
    client.force_authenticate(make_user("staff", staff=True))
    url = f"/api/tables/{game.id}/disconnect/"
    refused = client.post(url, {"reason": "stuck"}, format="json")
    assert refused.status_code == 403 and refused.json()["code"]
    client.force_authenticate(mod)
    for body in ({}, {"reason": " "}):
        response = client.post(url, body, format="json")
        assert response.status_code == 400 and response.json()["code"] == "invalid"
    assert not ModerationRecord.objects.exists()
    response = client.post(url, {"reason": "clients stuck after the deploy"}, format="json")
    assert response.status_code == 200 and response.json() == {"closed": True}
    record = record_of(DISCONNECT)
    assert (record.moderator, record.moderator_name, record.game_id) == (mod, "mod", game.id)
    assert record.reason == "clients stuck after the deploy"
    missing = client.post(
        "/api/tables/00000000-0000-0000-0000-000000000000/disconnect/",
        {"reason": "x"},
        format="json",
    )
    assert missing.status_code == 404 and missing.json()["code"] == "not_found"


def test_closing_a_games_sockets_closes_them_after_the_record_is_stored(trio, mod):
    game = humans_table(trio[:2])
    app = URLRouter(websocket_urlpatterns)

    async def scenario():
        ws = WebsocketCommunicator(app, f"/ws/games/{game.id}/")
        ws.scope["user"] = trio[0]
        await ws.connect()
        await ws.receive_json_from(timeout=5)
        await sync_to_async(close_streams)(game_id=game.id, moderator=mod, reason="stuck")
        closed = await ws.receive_output(timeout=5)
        await ws.wait()
        return closed

    closed = async_to_sync(scenario)()
    assert closed == {"type": "websocket.close", "code": 4000}
    assert record_of(DISCONNECT).reason == "stuck"


# ---- acting as a table's host -------------------------------------------------------
def test_a_moderator_may_act_as_another_tables_host_and_it_is_recorded(trio, mod):
    host, guest, _ = trio
    table = services.table_create(user=host, ruleset="kingdoms", seats=4)
    services.table_join(game_id=table.id, user=guest)
    services.bot_add(game_id=table.id, user=host, level="easy")  # the host: no record
    assert not ModerationRecord.objects.exists()
    bot = services.bot_add(game_id=table.id, user=mod, level="medium")
    services.bot_remove(game_id=table.id, user=mod, seat_id=bot.pk)
    services.bot_add(game_id=table.id, user=mod, level="easy")
    services.game_start(game_id=table.id, user=mod)
    assert Game.objects.get(pk=table.id).status == Game.Status.ACTIVE
    records = ModerationRecord.objects.filter(action=HOST_ACTION).order_by("id")
    assert [r.reason for r in records] == [
        "added a bot (medium) at ana's table",
        f"removed a bot (seat id {bot.pk}) at ana's table",
        "added a bot (easy) at ana's table",
        "started the game at ana's table",
    ]
    assert {(r.moderator_name, r.game_id) for r in records} == {("mod", table.id)}


def test_staff_without_the_permission_cannot_act_as_another_tables_host(trio, make_user):
    host, guest, _ = trio
    staff = make_user("staff", staff=True)
    table = services.table_create(user=host, ruleset="kingdoms", seats=3)
    services.table_join(game_id=table.id, user=guest)
    bot = services.bot_add(game_id=table.id, user=host, level="easy")
    attempts = [
        lambda who: services.bot_add(game_id=table.id, user=who, level="easy"),
        lambda who: services.bot_remove(game_id=table.id, user=who, seat_id=bot.pk),
        lambda who: services.game_start(game_id=table.id, user=who),
    ]
    for who in (staff, guest):
        for attempt in attempts:
            with pytest.raises(ServiceError) as err:
                attempt(who)
            assert (err.value.code, err.value.status) == ("forbidden", 403)
    assert Game.objects.get(pk=table.id).status == Game.Status.OPEN
    assert table.seats.count() == 3
    assert not ModerationRecord.objects.exists()


# ---- ban and mute take effect -------------------------------------------------------
def test_a_ban_deactivates_the_account_and_bots_take_its_seats(trio, mod):
    ana, bob, cy = trio
    playing = humans_table([ana, bob, cy])
    waiting = services.table_create(user=cy, ruleset="kingdoms", seats=3)
    services.table_join(game_id=waiting.id, user=bob)
    kicks = community_services.ban_account(player=bob, moderator=mod, reason="cheating")
    bob.refresh_from_db()
    assert not bob.is_active and len(kicks) == 2
    assert playing.seats.get(user=bob).kicked
    assert not waiting.seats.filter(user=bob).exists()
    client = APIClient()
    assert not client.login(username="bob", password="pw-123456789")
    with pytest.raises(ServiceError):
        community_services.ban_account(player=mod, moderator=mod, reason="oops")


def test_a_mute_stops_chat_until_it_ends_or_is_lifted(trio, mod):
    game = humans_table(trio[:2])
    community_services.mute_player(player=trio[0], moderator=mod, reason="spam", minutes=10)
    with pytest.raises(ServiceError) as err:
        community_services.chat_post(game_id=game.id, user=trio[0], body="let me talk")
    assert err.value.code == "muted" and "until" in err.value.message
    Mute.objects.update(until=Mute.objects.get().created_at)  # it ran out
    community_services.chat_post(game_id=game.id, user=trio[0], body="back")
    community_services.mute_player(player=trio[0], moderator=mod, reason="spam again")
    with pytest.raises(ServiceError):
        community_services.chat_post(game_id=game.id, user=trio[0], body="still?")
    community_services.unmute_player(player=trio[0], moderator=mod, reason="ok")
    community_services.chat_post(game_id=game.id, user=trio[0], body="thanks")


# ---- reports and the queue ----------------------------------------------------------
def test_reports_queue_until_resolved_or_dismissed(trio, mod):
    game = humans_table(trio[:2])
    line = community_services.chat_post(game_id=game.id, user=trio[0], body="you are bad")
    report = community_services.chat_report(message_id=line.pk, user=trio[1], reason="insult")
    again = community_services.chat_report(message_id=line.pk, user=trio[1], reason="again")
    assert again.pk == report.pk, "one open report per reporter and message"
    with pytest.raises(ServiceError) as err:
        community_services.chat_report(message_id=line.pk, user=trio[0])
    assert err.value.code == "own_message"
    client = APIClient()
    client.force_authenticate(mod)
    queue = client.get("/api/moderation/reports/").json()["reports"]
    assert [r["id"] for r in queue] == [report.pk]
    assert queue[0]["message"]["body"] == "you are bad"
    assert queue[0]["audit_url"] == f"/tables/{game.id}/audit/"
    response = client.post(
        f"/api/moderation/reports/{report.pk}/dismiss/", {"note": "banter"}, format="json"
    )
    assert response.json() == {"id": report.pk, "status": "dismissed"}
    assert client.get("/api/moderation/reports/").json()["reports"] == []
    closed = client.post(f"/api/moderation/reports/{report.pk}/resolve/")
    assert closed.status_code == 409 and closed.json()["code"] == "report_closed"


def test_a_hidden_message_leaves_the_history(trio, mod):
    game = humans_table(trio[:2])
    line = community_services.chat_post(game_id=game.id, user=trio[0], body="spoiler")
    community_services.chat_post(game_id=game.id, user=trio[1], body="ok")
    community_services.hide_message(message_id=line.pk, moderator=mod, reason="spoiler")
    history = APIClient().get(f"/api/tables/{game.id}/chat/").json()["messages"]
    assert [m["body"] for m in history] == ["ok"]
    assert ChatMessage.objects.get(pk=line.pk).hidden, "kept for the record"
    with pytest.raises(ServiceError):
        community_services.chat_report(message_id=line.pk, user=trio[1])


def test_chat_refuses_empty_long_and_flooding_messages(trio):
    game = humans_table(trio[:2])
    for body in ("", "   ", "x" * 501):
        with pytest.raises(ServiceError) as err:
            community_services.chat_post(game_id=game.id, user=trio[0], body=body)
        assert err.value.code == "bad_message"
    for n in range(5):
        community_services.chat_post(game_id=game.id, user=trio[0], body=f"line {n}")
    with pytest.raises(ServiceError) as err:
        community_services.chat_post(game_id=game.id, user=trio[0], body="one more")
    assert err.value.code == "slow_down" and err.value.status == 429


# ---- the Django admin -------------------------------------------------------------
def admin_action(client, model: str, action: str, ids: list, **form) -> object:
    return client.post(
        f"/admin/{model}/",
        {"action": action, "_selected_action": ids, "apply": "1", **form},
        follow=True,
    )


def test_admin_actions_ask_for_a_reason_and_record_it(four, mod, client):
    trio = four
    game = humans_table(four)
    line = community_services.chat_post(game_id=game.id, user=trio[1], body="nasty")
    report = community_services.chat_report(message_id=line.pk, user=trio[0], reason="nasty")
    client.force_login(mod)
    # Without "apply" the action shows the reason form.
    form = client.post(
        "/admin/games/report/", {"action": "hide_and_resolve", "_selected_action": [report.pk]}
    )
    assert form.status_code == 200 and b'name="reason"' in form.content
    admin_action(client, "games/report", "hide_and_resolve", [report.pk], reason="insult")
    assert ChatMessage.objects.get(pk=line.pk).hidden
    assert Report.objects.get(pk=report.pk).status == Report.Status.RESOLVED
    seat = game.seats.get(user=trio[2])
    admin_action(client, "games/seat", "kick_players", [seat.pk], reason="afk troll")
    assert GameEvent.objects.filter(game=game, type="seat_kicked", actor="staff:mod").exists()
    user_model = get_user_model()
    admin_action(client, "auth/user", "mute_players", [trio[1].pk], reason="x", minutes=5)
    admin_action(client, "auth/user", "ban_accounts", [trio[1].pk], reason="repeat")
    assert not user_model.objects.get(pk=trio[1].pk).is_active
    admin_action(client, "games/game", "abort_games", [game.pk], reason="done")
    assert Game.objects.get(pk=game.id).status == Game.Status.ABORTED
    actions = set(ModerationRecord.objects.values_list("action", flat=True))
    assert {"hide_message", "resolve_report", "kick", "mute", "ban", "abort"} <= actions
    assert set(ModerationRecord.objects.values_list("moderator_name", flat=True)) == {"mod"}
    queue = client.get("/admin/games/report/?status=all")
    assert queue.status_code == 200 and b"nasty" in queue.content
    detail = client.get(f"/admin/games/report/{report.pk}/change/")
    assert f"/tables/{game.id}/audit/".encode() in detail.content


def test_staff_without_the_permission_get_no_moderation_actions(trio, make_user, client):
    game = humans_table(trio[:2])
    staff = make_user("staff", staff=True)
    client.force_login(staff)
    response = admin_action(client, "games/game", "abort_games", [game.pk], reason="x")
    assert response.status_code in (200, 403)
    assert Game.objects.get(pk=game.id).status == Game.Status.ACTIVE
    assert not ModerationRecord.objects.exists()


def test_the_admin_abort_action_appends_a_game_aborted_event_and_needs_a_reason(trio, mod, client):
    game = humans_table(trio[:2])
    head = game.head_seq
    client.force_login(mod)
    again = admin_action(client, "games/game", "abort_games", [game.pk], reason="")
    assert again.status_code == 200 and b'name="reason"' in again.content, "asked again"
    assert Game.objects.get(pk=game.id).status == Game.Status.ACTIVE
    admin_action(client, "games/game", "abort_games", [game.pk], reason="server fault")
    game.refresh_from_db()
    assert game.status == Game.Status.ABORTED and game.head_seq == head + 1
    aborted = GameEvent.objects.get(game=game, seq=game.head_seq)
    assert (aborted.type, aborted.actor) == ("game_aborted", "staff:mod")
    assert aborted.public["reason"] == "server fault"
    assert aborted.public["seed"] == game.seed, "the seed is revealed for the audit"
    assert record_of(Action.ABORT).event_seq == aborted.seq
    assert audit_game(game).passed, audit_game(game).problems


@pytest.mark.parametrize("who", ["moderator", "superuser"])
def test_the_admin_refuses_to_change_or_delete_events(trio, mod, make_user, client, who):
    game = humans_table(trio[:2])
    event = GameEvent.objects.get(game=game, seq=1)
    user = mod if who == "moderator" else get_user_model().objects.create_superuser("root")
    client.force_login(user)
    base = f"/admin/games/gameevent/{event.pk}"
    assert client.get(f"{base}/change/").status_code == 200, "may read it"
    assert client.post(f"{base}/change/", {"type": "forged"}).status_code == 403
    assert client.get(f"{base}/delete/").status_code == 403
    assert client.post(f"{base}/delete/", {"post": "yes"}).status_code == 403
    client.post(
        "/admin/games/gameevent/",
        {"action": "delete_selected", "_selected_action": [event.pk], "post": "yes"},
    )
    request = RequestFactory().get("/admin/games/gameevent/")
    request.user = user
    model_admin = admin.site._registry[GameEvent]
    assert not model_admin.has_delete_permission(request, event)
    assert not model_admin.has_change_permission(request, event)
    assert "delete_selected" not in model_admin.get_actions(request)
    assert GameEvent.objects.get(pk=event.pk).type == event.type
    assert GameEvent.objects.filter(game=game).count() == game.head_seq


def test_the_admin_refuses_to_delete_snapshots_even_for_a_superuser(trio, client, settings):
    settings.SNAPSHOT_EVERY = 1
    game = humans_table(trio[:2])
    snapshot = Snapshot.objects.filter(game=game).first()
    assert snapshot is not None
    root = get_user_model().objects.create_superuser("root")
    client.force_login(root)
    assert client.get(f"/admin/games/snapshot/{snapshot.pk}/delete/").status_code == 403
    assert client.post(f"/admin/games/snapshot/{snapshot.pk}/delete/").status_code == 403
    client.post(
        "/admin/games/snapshot/",
        {"action": "delete_selected", "_selected_action": [snapshot.pk], "post": "yes"},
    )
    request = RequestFactory().get("/admin/games/snapshot/")
    request.user = root
    model_admin = admin.site._registry[Snapshot]
    assert not model_admin.has_delete_permission(request, snapshot)
    assert "delete_selected" not in model_admin.get_actions(request)
    assert Snapshot.objects.filter(pk=snapshot.pk).exists()
