"""The community's write path: table chat and reports, moderation of people.

- ``chat``: post a message, report one;
- ``blocks``: a player's blocks of others (they refuse challenges);
- ``moderation``: hide, mute, ban, handle reports, each recorded. Kicking a seat and
  aborting a game change the game: they are games.services (recorded here all the same).
"""

from community.services.blocks import player_block, player_unblock
from community.services.chat import chat_post, chat_report
from community.services.moderation import (
    account_ban,
    account_unban,
    message_hide,
    player_mute,
    player_unmute,
    report_close,
)

__all__ = [
    "account_ban",
    "account_unban",
    "chat_post",
    "chat_report",
    "message_hide",
    "player_block",
    "player_mute",
    "player_unblock",
    "player_unmute",
    "report_close",
]
