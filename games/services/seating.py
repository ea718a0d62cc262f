"""An open table's seats: who sits down, who leaves, the bots, and the start.

Before a game starts there is no log yet: the lobby's changes to an open table (join,
leave, bots, start, and moderation there) go one at a time under the game row's lock
(``SELECT ... FOR UPDATE``; SQLite's IMMEDIATE transactions lock the whole database), so
two players never take the last seat. Once the game is in progress every write is a
write of its log and takes the log's optimistic rule instead (writing.command_record).
"""

from __future__ import annotations

import uuid

from django.core.exceptions import ValidationError

from games.errors import NotFound
from games.models import Game


def table_locked(game_id: uuid.UUID | str) -> Game:
    """The game's row, locked until the transaction ends."""
    try:
        return Game.objects.select_for_update().get(pk=game_id)
    except (Game.DoesNotExist, ValidationError, ValueError, TypeError) as exc:
        raise NotFound("not_found", "No such table.") from exc
