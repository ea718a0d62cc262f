"""The write path. Every change to a game goes through one of these functions.

Each runs in one transaction holding the game's row lock, appends events through the
store, and publishes (and schedules bot turns) only after commit.

- ``lobby``: open tables (create with a time control, join, leave, bots, start, rematch,
  abort before the first move);
- ``challenges``: invite a player to a seat; accept, decline, cancel; expiry;
- ``matchmaking``: quick match (the next people asking for a game sit down together;
  bots after a wait) and the lobby's counts;
- ``play``: commands in a game (moves, resign, skip or expel a player out of time);
- ``timing``: the clock sweep (timeouts);
- ``moderation``: staff actions on a game (kick a seat, abort, close its sockets).

Chat and the moderation of people (hide, mute, ban, reports) are in community.services.
"""

from games.services.challenges import (
    challenge_accept,
    challenge_cancel,
    challenge_create,
    challenge_decline,
    challenges_expire,
)
from games.services.lobby import (
    bot_add,
    bot_remove,
    game_abort_unplayed,
    game_start,
    stale_rematches_close,
    table_create,
    table_join,
    table_leave,
    table_rematch,
)
from games.services.matchmaking import (
    lobby_counts,
    quick_match_join,
    quick_match_leave,
    quick_match_state,
    quick_matches_settle,
)
from games.services.moderation import (
    can_moderate,
    game_abort,
    player_kick,
    require_moderator,
    streams_close,
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
    "Submitted",
    "TAKEOVER_LEVEL",
    "bot_add",
    "bot_remove",
    "can_moderate",
    "challenge_accept",
    "challenge_cancel",
    "challenge_create",
    "challenge_decline",
    "challenges_expire",
    "clock_sweep",
    "game_abort",
    "game_abort_unplayed",
    "game_expel",
    "game_resign",
    "game_skip",
    "game_start",
    "lobby_counts",
    "game_submit",
    "game_timeouts",
    "player_kick",
    "require_moderator",
    "seat_of",
    "quick_match_join",
    "quick_match_leave",
    "quick_match_state",
    "quick_matches_settle",
    "stale_rematches_close",
    "streams_close",
    "table_create",
    "table_join",
    "table_leave",
    "table_rematch",
]
