"""Moderation in the Django admin: actions ask for a reason and record it; the logs are
read-only."""

from __future__ import annotations

import pytest
from django.contrib import admin
from django.contrib.auth import get_user_model
from django.test import RequestFactory

from audit.stored import audit_game
from community import services as community_services
from community.models import ChatMessage, ModerationRecord, Report
from games.models import Game, GameEvent, Snapshot
from tests.community.moderation.helpers import Action, record_of
from tests.games.helpers import humans_game

pytestmark = pytest.mark.django_db(transaction=True)


def admin_action(client, model: str, action: str, ids: list, **form) -> object:
    return client.post(
        f"/admin/{model}/",
        {"action": action, "_selected_action": ids, "apply": "1", **form},
        follow=True,
    )


def test_admin_actions_ask_for_a_reason_and_record_it(four, mod, client):
    trio = four
    game = humans_game(four)
    line = community_services.chat_post(game_id=game.id, user=trio[1], body="nasty")
    report = community_services.chat_report(message_id=line.pk, user=trio[0], reason="nasty")
    client.force_login(mod)
    # Without "apply" the action shows the reason form.
    form = client.post(
        "/admin/community/report/", {"action": "hide_and_resolve", "_selected_action": [report.pk]}
    )
    assert form.status_code == 200 and b'name="reason"' in form.content
    admin_action(client, "community/report", "hide_and_resolve", [report.pk], reason="insult")
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
    queue = client.get("/admin/community/report/?status=all")
    assert queue.status_code == 200 and b"nasty" in queue.content
    detail = client.get(f"/admin/community/report/{report.pk}/change/")
    assert f"/tables/{game.id}/audit/".encode() in detail.content


def test_staff_without_the_permission_get_no_moderation_actions(trio, make_user, client):
    game = humans_game(trio[:2])
    staff = make_user("staff", staff=True)
    client.force_login(staff)
    response = admin_action(client, "games/game", "abort_games", [game.pk], reason="x")
    assert response.status_code in (200, 403)
    assert Game.objects.get(pk=game.id).status == Game.Status.ACTIVE
    assert not ModerationRecord.objects.exists()


def test_the_admin_abort_action_appends_a_game_aborted_event_and_needs_a_reason(trio, mod, client):
    game = humans_game(trio[:2])
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
    game = humans_game(trio[:2])
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
    game = humans_game(trio[:2])
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
