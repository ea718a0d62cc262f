"""Every role against every moderation action of the Django admin."""

from __future__ import annotations

import pytest
from django.contrib import admin
from django.contrib.auth.models import Permission

from community.models import ModerationRecord
from games.models import Game
from tests.games.permissions.helpers import cases, web_client

pytestmark = pytest.mark.django_db


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
