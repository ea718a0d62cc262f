"""Moderation in the Django admin. Events are read-only; aborting appends an event."""

from __future__ import annotations

from django.contrib import admin, messages
from django.db.models import QuerySet
from django.http import HttpRequest

from games import services
from games.errors import ServiceError
from games.models import Game, GameEvent, Seat, Snapshot


class SeatInline(admin.TabularInline):
    model = Seat
    extra = 0
    fields = ("number", "user", "bot_level", "resigned", "joined_order")
    readonly_fields = fields
    can_delete = False


@admin.register(Game)
class GameAdmin(admin.ModelAdmin):
    list_display = ("id", "ruleset", "status", "seats_wanted", "head_seq", "created_at")
    list_filter = ("ruleset", "status")
    search_fields = ("id", "seats__user__username")
    # The seed stays out of the admin too: it is shown only once the game is over.
    readonly_fields = (
        "ruleset",
        "ruleset_version",
        "options",
        "status",
        "head_seq",
        "seed_commitment",
        "revealed_seed",
        "created_by",
        "started_at",
        "finished_at",
        "outcome",
    )
    exclude = ("seed",)
    inlines = [SeatInline]
    actions = ["abort_games"]

    @admin.action(description="Abort the selected games (appends a game_aborted event)")
    def abort_games(self, request: HttpRequest, queryset: QuerySet[Game]) -> None:
        done = 0
        for game in queryset:
            try:
                services.game_abort(
                    game_id=game.id, staff_user=request.user, reason="aborted by a moderator"
                )
                done += 1
            except ServiceError as exc:
                self.message_user(request, f"{game}: {exc.message}", messages.WARNING)
        self.message_user(request, f"Aborted {done} game(s).")

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False


@admin.register(GameEvent)
class GameEventAdmin(admin.ModelAdmin):
    """Read-only. Shows public data only: private parts are never rendered here."""

    list_display = ("game", "seq", "type", "actor", "recorded_at")
    list_filter = ("type",)
    search_fields = ("game__id",)
    fields = (
        "game",
        "seq",
        "type",
        "public",
        "actor",
        "command_id",
        "command",
        "recorded_at",
        "prev_hash",
        "hash",
    )
    readonly_fields = fields

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: object = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: object = None) -> bool:
        return False


@admin.register(Snapshot)
class SnapshotAdmin(admin.ModelAdmin):
    list_display = ("game", "seq", "created_at")
    fields = ("game", "seq", "created_at")
    readonly_fields = fields

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: object = None) -> bool:
        return False
