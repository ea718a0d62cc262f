"""A player's blocks of other players, and what they refuse: a challenge from someone
the challenged player blocked, or from a player a moderator muted (a challenge is a
message to a player)."""

from __future__ import annotations

from django.contrib.auth.models import User

from community.models import Block, Mute
from games.errors import ServiceError


def player_block(*, user: User, blocked: User) -> Block:
    if blocked.pk == user.pk:
        raise ServiceError("self_block", "You cannot block yourself.")
    block, _ = Block.objects.get_or_create(user=user, blocked=blocked)
    return block


def player_unblock(*, user: User, blocked: User) -> None:
    Block.objects.filter(user=user, blocked=blocked).delete()


def challenge_refusal(challenger: User, challenged: User) -> tuple[str, str] | None:
    """games' challenge check (games/selectors/sources.py), set in community/apps.py."""
    if Block.objects.filter(user=challenged, blocked=challenger).exists():
        return "blocked", "This player does not take challenges from you."
    if Mute.active().filter(user=challenger).exists():
        return "muted", "A moderator muted you: you cannot challenge players meanwhile."
    return None
