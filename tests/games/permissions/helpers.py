"""The roles of the permission matrix (see the package's docstring) and the clients that
act as each of them."""

from __future__ import annotations

from dataclasses import dataclass

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from rest_framework.test import APIClient

from community.models import ChatMessage, Report
from games.models import Game

ROLES = [
    "anonymous",
    "player",
    "other_player",
    "spectator",
    "muted",
    "banned",
    "staff",
    "moderator",
]
SEATED = {"player", "other_player"}
# Whom the server no longer knows: a ban deactivates the account, and Django's session
# backend then treats its old session as anonymous.
UNKNOWN = {"anonymous", "banned"}


@dataclass
class World:
    users: dict
    game: Game
    lobby: Game
    bot_seat: int
    command: dict
    late_seat: int
    message: ChatMessage
    report: Report


def person(name: str, staff: bool = False):
    return get_user_model().objects.create(username=name, is_staff=staff)


def everyone(status: int, anonymous: int = 401) -> dict[str, int]:
    """``status`` for every signed-in role; a request without credentials (anonymous, or a
    banned account's ended session) answers 401 with ``WWW-Authenticate: Token``."""
    return {role: (anonymous if role in UNKNOWN else status) for role in ROLES}


def only(allowed: dict[str, int], others: int = 403, anonymous: int = 401) -> dict[str, int]:
    return {role: allowed.get(role, anonymous if role in UNKNOWN else others) for role in ROLES}


def fill(path: str, w: World) -> str:
    return path.format(
        game=w.game.id,
        lobby=w.lobby.id,
        bot=w.bot_seat,
        message=w.message.pk,
        report=w.report.pk,
        third=w.users["third"].username,
        ruleset="kingdoms",
    )


def cases(matrix: dict) -> list:
    return [pytest.param(name, role, id=f"{name}-{role}") for name in matrix for role in ROLES]


def api_client(world: World, role: str) -> APIClient:
    client = APIClient()
    if role == "banned":
        # A real session, not force_authenticate (which skips the is_active check).
        client.force_login(world.users[role])
    elif role != "anonymous":
        client.force_authenticate(world.users[role])
    return client


def web_client(world: World, role: str) -> Client:
    client = Client()
    if role != "anonymous":
        client.force_login(world.users[role])
    return client
