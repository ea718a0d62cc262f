"""What the service adds around a ruleset, as pure functions (no Django).

The table state wraps the ruleset's state with the facts the service records itself:
who left the table (resigned, was expelled after a timeout, or was removed by a
moderator), the clocks, whether the game is finished or aborted. The write path and the
auditor's re-execution both go through ``start_events`` and ``command_events``, so the
same seed, commands and recorded times give the same events byte for byte.

The package: ``state`` (the table state and its fold), ``commands`` (commands into
events), ``snapshot`` (views and snapshots); everything is re-exported here, so callers
write ``from games import table as tables`` and ``tables.command_events(...)``.
"""

from games.table.commands import command_events
from games.table.snapshot import copy, dump, load, view
from games.table.state import (
    ABORT,
    ABSENT,
    BOT_ACTOR,
    CLOCK_EXPIRED,
    CLOCK_PRESSED,
    ENDED_BY,
    EXPEL,
    GAME_ABORTED,
    KICK,
    RESIGN,
    RESULT_DECLARED,
    SEAT_ABSENT,
    SEAT_ACTOR,
    SEAT_EXPELLED,
    SEAT_KICKED,
    SEAT_RESIGNED,
    SEAT_RETURNED,
    SERVICE_COMMANDS,
    SERVICE_EVENTS,
    SKIP,
    STAFF_ACTOR,
    START,
    SYSTEM_ACTOR,
    TABLE_STARTED,
    TIMEOUT,
    TURN_SKIPPED,
    TableState,
    apply,
    bots_to_act,
    fold,
    seat_players,
    start_events,
    to_act,
)

__all__ = [
    "ABORT",
    "ABSENT",
    "BOT_ACTOR",
    "CLOCK_EXPIRED",
    "CLOCK_PRESSED",
    "ENDED_BY",
    "EXPEL",
    "GAME_ABORTED",
    "KICK",
    "RESIGN",
    "RESULT_DECLARED",
    "SEAT_ABSENT",
    "SEAT_ACTOR",
    "SEAT_EXPELLED",
    "SEAT_KICKED",
    "SEAT_RESIGNED",
    "SEAT_RETURNED",
    "SERVICE_COMMANDS",
    "SERVICE_EVENTS",
    "SKIP",
    "STAFF_ACTOR",
    "START",
    "SYSTEM_ACTOR",
    "TABLE_STARTED",
    "TIMEOUT",
    "TURN_SKIPPED",
    "TableState",
    "apply",
    "bots_to_act",
    "command_events",
    "copy",
    "dump",
    "fold",
    "load",
    "seat_players",
    "start_events",
    "to_act",
    "view",
]
