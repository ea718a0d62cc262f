"""Players in the admin: ratings (read-only). The accounts' admin, with the ban and mute
actions, is community's (community/admin_accounts.py)."""

from __future__ import annotations

from django.contrib import admin

from games.admin_actions import ModeratorAccess
from players.models import Rating, RatingChange


@admin.register(Rating)
class RatingAdmin(ModeratorAccess, admin.ModelAdmin):
    list_display = ("user", "ruleset", "value", "games", "updated_at")
    list_filter = ("ruleset",)
    search_fields = ("user__username",)
    readonly_fields = ("user", "ruleset", "value", "games", "updated_at")


@admin.register(RatingChange)
class RatingChangeAdmin(ModeratorAccess, admin.ModelAdmin):
    list_display = ("created_at", "user", "ruleset", "game", "place", "before", "after")
    list_filter = ("ruleset",)
    search_fields = ("user__username", "game__id")
    readonly_fields = ("game", "user", "ruleset", "place", "before", "after", "created_at")
