"""Moderation in the Django admin: the queue of reports, chat, records and mutes. Every
action calls a service (community.services, or games.services for what changes a game),
which checks the ``games.moderate`` permission again and writes the record."""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import admin
from django.db.models import QuerySet
from django.http import HttpRequest, HttpResponse
from django.utils.html import format_html, format_html_join
from django.utils.safestring import mark_safe

from community import (
    admin_accounts,  # noqa: F401  (registers the accounts' admin; Django imports only this)
    services,
)
from community.admin_mutes import MuteForm, mute_users
from community.models import ChatMessage, ModerationRecord, Mute, Report
from games import services as game_services
from games.admin_actions import ModeratorAccess, game_links, with_reason
from games.api.signed_in import signed_in_user


class NoteForm(forms.Form):
    reason = forms.CharField(
        label="Note", max_length=500, required=False, widget=forms.Textarea(attrs={"rows": 2})
    )


@admin.register(ChatMessage)
class ChatMessageAdmin(ModeratorAccess, admin.ModelAdmin):
    list_display = ("created_at", "author", "body", "hidden", "game_link")
    list_filter = ("hidden",)
    search_fields = ("body", "author__username", "game__id")
    fields = ("game", "author", "body", "created_at", "hidden")
    readonly_fields = fields
    actions = ["hide_messages", "mute_authors", "ban_authors"]

    @admin.display(description="game")
    def game_link(self, message: ChatMessage) -> str:
        return game_links(message.game_id)

    @admin.action(description="Hide the selected messages", permissions=["moderate"])
    def hide_messages(self, request: HttpRequest, queryset: QuerySet) -> HttpResponse | None:
        return with_reason(
            self,
            request,
            queryset,
            title="Hide messages",
            perform=lambda m, c: services.message_hide(
                message_id=m.pk, moderator=signed_in_user(request), reason=c["reason"]
            ),
        )

    @admin.action(description="Mute the authors", permissions=["moderate"])
    def mute_authors(self, request: HttpRequest, queryset: QuerySet) -> HttpResponse | None:
        return with_reason(
            self,
            request,
            queryset,
            title="Mute the authors",
            form_class=MuteForm,
            perform=lambda m, c: mute_users(request, [m.author], c),
        )

    @admin.action(description="Ban the authors' accounts", permissions=["moderate"])
    def ban_authors(self, request: HttpRequest, queryset: QuerySet) -> HttpResponse | None:
        return with_reason(
            self,
            request,
            queryset,
            title="Ban the authors",
            in_game_log=True,
            perform=lambda m, c: services.account_ban(
                player=m.author, moderator=signed_in_user(request), reason=c["reason"]
            ),
        )


class ReportStatusFilter(admin.SimpleListFilter):
    """The queue opens on the open reports."""

    title = "status"
    parameter_name = "status"

    def lookups(self, request: HttpRequest, model_admin: admin.ModelAdmin) -> list:
        return [*Report.Status.choices, ("all", "all")]

    def choices(self, changelist: Any) -> Any:
        for value, label in self.lookup_choices:
            yield {
                "selected": (self.value() or Report.Status.OPEN) == value,
                "query_string": changelist.get_query_string({self.parameter_name: value}),
                "display": label,
            }

    def queryset(self, request: HttpRequest, queryset: QuerySet) -> QuerySet:
        value = self.value() or Report.Status.OPEN
        return queryset if value == "all" else queryset.filter(status=value)


@admin.register(Report)
class ReportAdmin(ModeratorAccess, admin.ModelAdmin):
    """The moderation queue: open reports with the message and the game's context."""

    list_display = ("created_at", "reporter", "author", "reported_message", "reason", "game_link")
    list_filter = (ReportStatusFilter,)
    list_select_related = ("message__author", "reporter")
    search_fields = ("message__body", "message__author__username", "reporter__username")
    fields = (
        "status",
        "reporter",
        "reason",
        "created_at",
        "reported_message",
        "author",
        "game_link",
        "conversation",
        "handled_by",
        "handled_at",
        "note",
    )
    readonly_fields = fields
    actions = [
        "resolve_reports",
        "dismiss_reports",
        "hide_and_resolve",
        "mute_authors",
        "kick_authors",
        "ban_authors",
    ]

    @admin.display(description="message")
    def reported_message(self, report: Report) -> str:
        hidden = " (hidden)" if report.message.hidden else ""
        return f"{report.message.body}{hidden}"

    @admin.display(description="author")
    def author(self, report: Report) -> str:
        return report.message.author.username

    @admin.display(description="game")
    def game_link(self, report: Report) -> str:
        game = report.message.game
        return format_html("{} ({}) — {}", game.ruleset, game.status, game_links(game.pk))

    @admin.display(description="conversation around it")
    def conversation(self, report: Report) -> str:
        message = report.message
        around = ChatMessage.objects.filter(game_id=message.game_id).select_related("author")
        before = list(around.filter(created_at__lte=message.created_at).order_by("-created_at"))
        after = list(around.filter(created_at__gt=message.created_at).order_by("created_at"))
        lines = [*reversed(before[:6]), *after[:5]]
        return format_html(
            "<ol>{}</ol>",
            format_html_join(
                "",
                "<li{}>{}: {}{}</li>",
                (
                    (
                        mark_safe(' style="font-weight:bold"') if m.pk == message.pk else "",
                        m.author.username,
                        m.body,
                        " (hidden)" if m.hidden else "",
                    )
                    for m in lines
                ),
            ),
        )

    def _close(self, request: HttpRequest, queryset: QuerySet, resolved: bool) -> Any:
        return with_reason(
            self,
            request,
            queryset,
            title="Resolve reports" if resolved else "Dismiss reports",
            form_class=NoteForm,
            perform=lambda r, c: services.report_close(
                report_id=r.pk,
                moderator=signed_in_user(request),
                resolved=resolved,
                note=c["reason"],
            ),
        )

    @admin.action(description="Resolve (action taken)", permissions=["moderate"])
    def resolve_reports(self, request: HttpRequest, queryset: QuerySet) -> Any:
        return self._close(request, queryset, resolved=True)

    @admin.action(description="Dismiss (nothing wrong)", permissions=["moderate"])
    def dismiss_reports(self, request: HttpRequest, queryset: QuerySet) -> Any:
        return self._close(request, queryset, resolved=False)

    @admin.action(description="Hide the messages and resolve", permissions=["moderate"])
    def hide_and_resolve(self, request: HttpRequest, queryset: QuerySet) -> Any:
        def perform(report: Report, cleaned: dict[str, Any]) -> None:
            services.message_hide(
                message_id=report.message_id,
                moderator=signed_in_user(request),
                reason=cleaned["reason"],
                report=report,
            )
            if report.status == Report.Status.OPEN:
                services.report_close(
                    report_id=report.pk,
                    moderator=signed_in_user(request),
                    resolved=True,
                    note=cleaned["reason"],
                )

        return with_reason(self, request, queryset, title="Hide and resolve", perform=perform)

    @admin.action(description="Mute the authors", permissions=["moderate"])
    def mute_authors(self, request: HttpRequest, queryset: QuerySet) -> Any:
        return with_reason(
            self,
            request,
            queryset,
            title="Mute the authors",
            form_class=MuteForm,
            perform=lambda r, c: mute_users(request, [r.message.author], c),
        )

    @admin.action(
        description="Kick the authors from the table (a bot plays on)", permissions=["moderate"]
    )
    def kick_authors(self, request: HttpRequest, queryset: QuerySet) -> Any:
        return with_reason(
            self,
            request,
            queryset,
            title="Kick from the table",
            in_game_log=True,
            perform=lambda r, c: game_services.player_kick(
                game_id=r.message.game_id,
                moderator=signed_in_user(request),
                player=r.message.author,
                reason=c["reason"],
            ),
        )

    @admin.action(description="Ban the authors' accounts", permissions=["moderate"])
    def ban_authors(self, request: HttpRequest, queryset: QuerySet) -> Any:
        return with_reason(
            self,
            request,
            queryset,
            title="Ban the authors",
            in_game_log=True,
            perform=lambda r, c: services.account_ban(
                player=r.message.author, moderator=signed_in_user(request), reason=c["reason"]
            ),
        )


@admin.register(ModerationRecord)
class ModerationRecordAdmin(ModeratorAccess, admin.ModelAdmin):
    """Read-only: the record of every moderation action."""

    list_display = ("created_at", "moderator_name", "action", "target_user", "reason", "where")
    list_filter = ("action",)
    search_fields = ("moderator_name", "target_user__username", "reason", "game__id")
    fields = (
        "created_at",
        "moderator_name",
        "action",
        "reason",
        "target_user",
        "game",
        "event_seq",
        "message",
        "report",
    )
    readonly_fields = fields
    actions = None

    @admin.display(description="game")
    def where(self, record: ModerationRecord) -> str:
        if record.game_id is None:
            return "—"
        seq = f" event {record.event_seq}" if record.event_seq else ""
        return format_html("{}{}", game_links(record.game_id), seq)


@admin.register(Mute)
class MuteAdmin(ModeratorAccess, admin.ModelAdmin):
    """Read-only: mutes are given and lifted with the actions on players and messages."""

    list_display = ("user", "until", "lifted_at", "reason", "created_by", "created_at")
    search_fields = ("user__username", "reason")
    readonly_fields = ("user", "until", "lifted_at", "reason", "created_by", "created_at")
