"""What other apps tell the games app about people, set in their ``AppConfig.ready()``
as the rating source is (games imports no other app):

- which accounts are bot accounts (players/apps.py): marked as bots wherever a name is
  shown, kept out of the human lobby;
- who may not challenge whom (community/apps.py): a block, a mute;
- a table's chat lines (community/apps.py), for the game stream of the bot API.

With nothing set (games alone): no bot accounts, every challenge allowed, no chat."""

from __future__ import annotations

from collections.abc import Callable, Collection
from typing import Any, Protocol

from django.contrib.auth.models import User

BotSource = Callable[[Collection[int]], set[int]]
# (challenger, challenged) -> (code, message) of a refusal, or None.
ChallengeCheck = Callable[[User, User], tuple[str, str] | None]


class ChatSource(Protocol):
    def group(self, game_id: Any) -> str:
        """The channel-layer group on which a table's new chat lines are announced."""
        ...

    def line(self, message: dict[str, Any]) -> dict[str, Any] | None:
        """The chat line a group ``message`` announces, as everyone may see it (None:
        nothing to show, e.g. a line hidden meanwhile)."""
        ...


_bots: BotSource | None = None
_checks: list[ChallengeCheck] = []
_chat: ChatSource | None = None


def set_bot_source(source: BotSource | None) -> None:
    global _bots
    _bots = source


def add_challenge_check(check: ChallengeCheck) -> None:
    if check not in _checks:
        _checks.append(check)


def set_chat_source(source: ChatSource | None) -> None:
    global _chat
    _chat = source


def bot_accounts(user_ids: Collection[int]) -> set[int]:
    """The bot accounts among ``user_ids`` (one query)."""
    ids = [u for u in user_ids if u is not None]
    return _bots(ids) if _bots is not None and ids else set()


def is_bot_account(user: User | None) -> bool:
    if user is None or not user.is_authenticated:
        return False
    return user.pk in bot_accounts([user.pk])


def challenge_refusal(challenger: User, challenged: User) -> tuple[str, str] | None:
    for check in _checks:
        refusal = check(challenger, challenged)
        if refusal is not None:
            return refusal
    return None


def chat_source() -> ChatSource | None:
    return _chat
