"""The mute action's form and its write, shared by the moderation admin (chat authors,
reported players) and the accounts' admin (``admin_accounts``)."""

from __future__ import annotations

from typing import Any

from django import forms
from django.http import HttpRequest

from community import services
from games.admin_actions import ReasonForm
from games.api.signed_in import signed_in_user


class MuteForm(ReasonForm):
    minutes = forms.IntegerField(
        required=False, min_value=1, help_text="Leave empty to mute until a moderator lifts it."
    )


def mute_users(request: HttpRequest, users: list, cleaned: dict[str, Any]) -> None:
    for user in users:
        services.player_mute(
            player=user,
            moderator=signed_in_user(request),
            reason=cleaned["reason"],
            minutes=cleaned.get("minutes"),
        )
