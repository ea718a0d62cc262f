"""Admin helpers shared by every moderated model: the action page that asks for a
reason, read-only access for moderators, links to a game's table and audit."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django import forms
from django.contrib import admin, messages
from django.contrib.admin.helpers import ACTION_CHECKBOX_NAME
from django.db.models import Model, QuerySet
from django.http import HttpRequest, HttpResponse
from django.template.response import TemplateResponse
from django.utils.html import format_html

from games import services
from games.errors import ServiceError


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


class ModeratorAccess:
    """Moderators (staff with games.moderate) see these models without model perms."""

    def has_moderate_permission(self, request: HttpRequest) -> bool:
        return services.can_moderate(request.user)

    def has_module_permission(self, request: HttpRequest) -> bool:
        return services.can_moderate(request.user) or super().has_module_permission(request)

    def has_view_permission(self, request: HttpRequest, obj: Model | None = None) -> bool:
        return services.can_moderate(request.user) or super().has_view_permission(request, obj)

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
