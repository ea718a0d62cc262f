"""The Django admin: games (read-only; moderators abort), seats (moderators kick), the
event log (read-only, public data only), snapshots. Chat, the report queue, mutes and
the moderation records are in community/admin.py."""

from __future__ import annotations

from typing import Any

from django.contrib import admin
from django.db.models import QuerySet
from django.http import HttpRequest

from games import services
from games.admin_actions import (
    HiddenFieldsUnsearchable,
    ModeratorAccess,
    game_links,
    with_reason,
)
from games.api.signed_in import signed_in_user
from games.models import Game, GameEvent, Seat, Snapshot


class SeatInline(admin.TabularInline):
    model = Seat
    extra = 0
    fields = ("number", "user", "bot_level", "resigned", "expelled", "kicked", "joined_order")
    readonly_fields = fields
    can_delete = False

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


@admin.register(Game)
class GameAdmin(ModeratorAccess, admin.ModelAdmin):
    list_display = ("id", "ruleset", "status", "seats_wanted", "head_seq", "created_at", "links")
    list_filter = ("ruleset", "status")
    search_fields = ("id", "seats__user__username")
    # The seed stays out of the admin too: it is shown only once the game is over.
    readonly_fields = (
        "ruleset",
        "ruleset_version",
        "options",
        "time_control",
        "status",
        "head_seq",
        "seed_commitment",
        "revealed_seed",
        "created_by",
        "started_at",
        "finished_at",
        "clock_deadline",
        "outcome",
        "rematch_of",
        "links",
    )
    exclude = ("seed",)
    inlines = [SeatInline]
    actions = ["abort_games"]

    @admin.display(description="pages")
    def links(self, game: Game) -> str:
        return game_links(game.pk)

    @admin.action(
        description="Abort the selected games (appends a game_aborted event)",
        permissions=["moderate"],
    )
    def abort_games(self, request: HttpRequest, queryset: QuerySet[Game]) -> Any:
        return with_reason(
            self,
            request,
            queryset,
            title="Abort games",
            in_game_log=True,
            perform=lambda g, c: services.game_abort(
                game_id=g.id, staff_user=signed_in_user(request), reason=c["reason"]
            ),
        )


@admin.register(Seat)
class SeatAdmin(ModeratorAccess, admin.ModelAdmin):
    """Players at tables; moderators kick from here (a bot takes the seat over)."""

    list_display = ("game", "number", "user", "bot_level", "resigned", "expelled", "kicked")
    list_filter = ("game__status", "kicked", "expelled", "resigned")
    list_select_related = ("game", "user")
    search_fields = ("user__username", "game__id")
    fields = ("game", "number", "user", "bot_level", "resigned", "expelled", "kicked")
    readonly_fields = fields
    actions = ["kick_players"]

    @admin.action(
        description="Kick the selected players from their tables (a bot plays on)",
        permissions=["moderate"],
    )
    def kick_players(self, request: HttpRequest, queryset: QuerySet[Seat]) -> Any:
        return with_reason(
            self,
            request,
            queryset.filter(user__isnull=False),
            title="Kick from the table",
            in_game_log=True,
            perform=lambda s, c: services.player_kick(
                game_id=s.game_id,
                moderator=signed_in_user(request),
                player=s.user,
                reason=c["reason"],
            ),
        )


@admin.register(GameEvent)
class GameEventAdmin(ModeratorAccess, admin.ModelAdmin):
    """Read-only. Shows public data only: private parts are never rendered here, and the
    command (a bid names its card) only once the game is over."""

    list_display = ("game", "seq", "type", "actor", "recorded_at")
    list_filter = ("type",)
    list_select_related = ("game",)
    search_fields = ("game__id",)
    fields = (
        "game",
        "seq",
        "type",
        "public",
        "actor",
        "command_id",
        "recorded_command",
        "recorded_at",
        "prev_hash",
        "hash",
    )
    readonly_fields = fields

    @admin.display(description="command")
    def recorded_command(self, event: GameEvent) -> Any:
        return event.command if event.game.is_over else "(shown once the game is over)"


@admin.register(Snapshot)
class SnapshotAdmin(HiddenFieldsUnsearchable, admin.ModelAdmin):
    """Read-only: snapshots are a cache of folds of the event log, written by the store."""

    list_display = ("game", "seq", "created_at")
    fields = ("game", "seq", "created_at")
    readonly_fields = fields

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: object = None) -> bool:
        return False

    # Not even for superusers: only the store writes or drops them, keeping them in step
    # with the log.
    def has_delete_permission(self, request: HttpRequest, obj: object = None) -> bool:
        return False
