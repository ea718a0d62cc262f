"""Accounts in the admin: Django's user admin with the ban and mute actions. Here rather
than in players because bans and mutes are community's (players imports no other app)."""

from __future__ import annotations

from typing import Any

from django.contrib import admin
from django.contrib.auth import get_user_model
from django.contrib.auth.admin import UserAdmin
from django.db.models import QuerySet
from django.http import HttpRequest

from community import services
from community.admin_mutes import MuteForm, mute_users
from games import services as game_services
from games.admin_actions import HiddenFieldsUnsearchable, with_reason
from games.api.signed_in import signed_in_user

User = get_user_model()


class PlayerAdmin(HiddenFieldsUnsearchable, UserAdmin):
    """Django's user admin plus the moderation actions (moderators only)."""

    actions = ["ban_accounts", "lift_bans", "mute_players", "unmute_players"]

    def has_moderate_permission(self, request: HttpRequest) -> bool:
        return game_services.can_moderate(request.user)

    def has_module_permission(self, request: HttpRequest) -> bool:
        return game_services.can_moderate(request.user) or super().has_module_permission(request)

    def has_view_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return game_services.can_moderate(request.user) or super().has_view_permission(request, obj)

    @admin.action(
        description="Ban the selected accounts (bots take their seats)", permissions=["moderate"]
    )
    def ban_accounts(self, request: HttpRequest, queryset: QuerySet) -> Any:
        return with_reason(
            self,
            request,
            queryset,
            title="Ban accounts",
            in_game_log=True,
            perform=lambda u, c: services.account_ban(
                player=u, moderator=signed_in_user(request), reason=c["reason"]
            ),
        )

    @admin.action(description="Lift the bans of the selected accounts", permissions=["moderate"])
    def lift_bans(self, request: HttpRequest, queryset: QuerySet) -> Any:
        return with_reason(
            self,
            request,
            queryset,
            title="Lift bans",
            perform=lambda u, c: services.account_unban(
                player=u, moderator=signed_in_user(request), reason=c["reason"]
            ),
        )

    @admin.action(description="Mute the selected players in chat", permissions=["moderate"])
    def mute_players(self, request: HttpRequest, queryset: QuerySet) -> Any:
        return with_reason(
            self,
            request,
            queryset,
            title="Mute players",
            form_class=MuteForm,
            perform=lambda u, c: mute_users(request, [u], c),
        )

    @admin.action(description="Lift the mutes of the selected players", permissions=["moderate"])
    def unmute_players(self, request: HttpRequest, queryset: QuerySet) -> Any:
        return with_reason(
            self,
            request,
            queryset,
            title="Lift mutes",
            perform=lambda u, c: services.player_unmute(
                player=u, moderator=signed_in_user(request), reason=c["reason"]
            ),
        )


if admin.site.is_registered(User):
    admin.site.unregister(User)
admin.site.register(User, PlayerAdmin)
