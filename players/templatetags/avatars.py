"""``{% load avatars %}{% avatar username 40 %}``: a player's picture (players/avatars.py)."""

from __future__ import annotations

from django import template
from django.utils.safestring import SafeString

from players.avatars import avatar_svg

register = template.Library()


@register.simple_tag
def avatar(name: str, size: int = 40) -> SafeString:
    return avatar_svg(name, size)
