"""The community's write path: table chat and reports, moderation of people.

- ``chat``: post a message, report one;
- ``moderation``: hide, mute, ban, handle reports, each recorded. Kicking a seat and
  aborting a game change the game: they are games.services (recorded here all the same).
"""

from community.services.chat import chat_post, chat_report
from community.services.moderation import (
    ban_account,
    close_report,
    hide_message,
    lift_ban,
    mute_player,
    unmute_player,
)

__all__ = [
    "ban_account",
    "chat_post",
    "chat_report",
    "close_report",
    "hide_message",
    "lift_ban",
    "mute_player",
    "unmute_player",
]
