"""The write path. Every change to a game goes through one of these functions.

Each runs in one transaction holding the game's row lock, appends events through the
store, and publishes (and schedules bot turns) only after commit.

- ``lobby``: open tables (create with a time control, join, leave, bots, start);
- ``play``: commands in a game (moves, resign, skip or expel a player out of time);
- ``timing``: the clock sweep (timeouts);
- ``moderation``: hide, mute, kick, abort, ban, reports — each recorded;
- ``chat``: table chat and reports.
"""

from games.services.chat import chat_post, chat_report
from games.services.lobby import (
    bot_add,
    bot_remove,
    game_start,
    table_create,
    table_join,
    table_leave,
)
from games.services.moderation import (
    ban_account,
    can_moderate,
    close_report,
    game_abort,
    hide_message,
    kick_player,
    lift_ban,
    mute_player,
    require_moderator,
    unmute_player,
)
from games.services.play import game_expel, game_resign, game_skip, game_submit
from games.services.timing import clock_sweep, game_timeouts
from games.services.writing import (
    BOT_LEVELS,
    BOT_THINK_SECONDS_RANGE,
    TAKEOVER_LEVEL,
    Submitted,
    seat_of,
)

__all__ = [
    "BOT_LEVELS",
    "BOT_THINK_SECONDS_RANGE",
    "TAKEOVER_LEVEL",
    "Submitted",
    "ban_account",
    "bot_add",
    "bot_remove",
    "can_moderate",
    "chat_post",
    "chat_report",
    "clock_sweep",
    "close_report",
    "game_abort",
    "game_expel",
    "game_resign",
    "game_skip",
    "game_start",
    "game_submit",
    "game_timeouts",
    "hide_message",
    "kick_player",
    "lift_ban",
    "mute_player",
    "require_moderator",
    "seat_of",
    "table_create",
    "table_join",
    "table_leave",
    "unmute_player",
]
