"""Admin helpers shared by every moderated model: the action page that asks for a
reason, read-only access for moderators, links to a game's table and audit."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django import forms
from django.contrib import admin, messages
from django.contrib.admin.helpers import ACTION_CHECKBOX_NAME
from django.core.exceptions import FieldDoesNotExist
from django.db.models import Model, QuerySet
from django.db.models.constants import LOOKUP_SEP
from django.http import HttpRequest, HttpResponse
from django.template.response import TemplateResponse
from django.utils.html import format_html

from games import services
from games.errors import ServiceError

# What no one may see while a game is played, the staff included (the audit rule): the
# seed (revealed by the audit page once the game is over), the events' private parts, the
# recorded commands (a bid's card) and the snapshots' whole state. The admin never shows
# them, so it must not filter on them either: a filter's "1 game" or "0 games" would read
# them out a character at a time.
HIDDEN_FIELDS: frozenset[tuple[str, str]] = frozenset(
    {
        ("games.game", "seed"),
        ("games.gameevent", "private"),
        ("games.gameevent", "command"),
        ("games.snapshot", "state"),
    }
)


def touches_hidden_field(model: type[Model], lookup: str) -> bool:
    """Whether the query-string lookup ``lookup`` on ``model`` reaches a hidden field,
    directly or through relations (``game__seed__startswith``)."""
    for part in lookup.split(LOOKUP_SEP):
        try:
            field = model._meta.get_field(part)
        except FieldDoesNotExist:
            return False
        if (model._meta.label_lower, field.name) in HIDDEN_FIELDS:
            return True
        path_infos = getattr(field, "path_infos", None)
        if not path_infos:
            return False
        model = path_infos[-1].to_opts.model
    return False


class HiddenFieldsUnsearchable:
    """Refuses the changelist's lookups on hidden fields (Django answers 400)."""

    def lookup_allowed(self, lookup: str, value: str, request: HttpRequest | None = None) -> bool:
        if touches_hidden_field(self.model, lookup):  # type: ignore[attr-defined]
            return False
        return super().lookup_allowed(lookup, value, request)  # type: ignore[misc]


class ReasonForm(forms.Form):
    reason = forms.CharField(max_length=500, widget=forms.Textarea(attrs={"rows": 3}))


def with_reason(
    model_admin: admin.ModelAdmin,
    request: HttpRequest,
    queryset: QuerySet,
    *,
    title: str,
    perform: Callable[[Any, dict[str, Any]], Any],
    form_class: type[forms.Form] = ReasonForm,
    in_game_log: bool = False,
) -> HttpResponse | None:
    """Ask for the reason on an intermediate page, then ``perform(obj, cleaned)`` each."""
    form = form_class(request.POST if "apply" in request.POST else None)
    if "apply" in request.POST and form.is_valid():
        done = 0
        for obj in queryset:
            try:
                perform(obj, form.cleaned_data)
                done += 1
            except ServiceError as exc:
                model_admin.message_user(request, f"{obj}: {exc.message}", messages.WARNING)
        model_admin.message_user(request, f"{title}: {done} done.")
        return None
    context = {
        **model_admin.admin_site.each_context(request),
        "title": title,
        "queryset": queryset,
        "form": form,
        "action": request.POST.get("action", ""),
        "opts": model_admin.model._meta,
        "action_checkbox_name": ACTION_CHECKBOX_NAME,
        "in_game_log": in_game_log,
    }
    return TemplateResponse(request, "admin/games/moderation_reason.html", context)


class ModeratorAccess(HiddenFieldsUnsearchable):
    """Moderators (staff with games.moderate) see these models without model perms, and
    no lookup reaches a hidden field."""

    def has_moderate_permission(self, request: HttpRequest) -> bool:
        return services.can_moderate(request.user)

    def has_module_permission(self, request: HttpRequest) -> bool:
        # A mixin for ModelAdmin, which has these permissions.
        return services.can_moderate(request.user) or super().has_module_permission(request)  # type: ignore[misc]

    def has_view_permission(self, request: HttpRequest, obj: Model | None = None) -> bool:
        return services.can_moderate(request.user) or super().has_view_permission(request, obj)  # type: ignore[misc]

    def has_add_permission(self, request: HttpRequest, obj: Model | None = None) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Model | None = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Model | None = None) -> bool:
        return False


def game_links(game_id: Any) -> str:
    return format_html(
        '<a href="/tables/{}/">table</a> · <a href="/tables/{}/audit/">audit</a>', game_id, game_id
    )
