"""The read path. Game data leaves the server only through these functions:
state through the ruleset's ``view`` and events through ``redact``.

``events``: redaction and the move log; ``views``: one game's seat, view, legal commands
and audit summary; ``lobby``: the lobby's tables and a table's summary and detail;
``ratings``: the rating source the players app sets. Callers use ``selectors.<name>``."""
# The audit page reads through audit/trail.py (which redacts through here).

from games.rules import get_ruleset
from games.selectors.events import (
    NAMES_CACHE_SIZE,
    NAMES_SECONDS,
    describe,
    events_after,
    redact,
    redacted_events,
    reveals_all,
    seat_names,
)
from games.selectors.lobby import (
    has_played,
    open_rematch,
    rematch_offer,
    seats_json,
    table_detail,
    table_list,
    table_summaries,
    table_summary,
)
from games.selectors.ratings import RatingSource, set_rating_source
from games.selectors.views import (
    audit_summary,
    game_view,
    get_game,
    legal_commands,
    legal_in,
    seat_directory,
    seats_to_act,
    turns_of,
    view_at,
    view_of,
    viewer_seat,
    viewer_seat_among,
)

__all__ = [
    "NAMES_CACHE_SIZE",
    "NAMES_SECONDS",
    "RatingSource",
    "audit_summary",
    "describe",
    "events_after",
    "game_view",
    "get_game",
    "get_ruleset",
    "has_played",
    "legal_commands",
    "legal_in",
    "open_rematch",
    "redact",
    "redacted_events",
    "rematch_offer",
    "reveals_all",
    "seat_directory",
    "seat_names",
    "seats_to_act",
    "seats_json",
    "set_rating_source",
    "table_detail",
    "table_list",
    "table_summaries",
    "table_summary",
    "turns_of",
    "view_at",
    "view_of",
    "viewer_seat",
    "viewer_seat_among",
]
