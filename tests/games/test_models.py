"""The log's tables: each lookup by game has one index, and the foreign keys stay."""

from __future__ import annotations

import pytest
from django.db import connection

from games.models import GameEvent, Snapshot

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("model", [GameEvent, Snapshot])
def test_lookups_by_game_share_the_unique_game_seq_index(model):
    with connection.cursor() as cursor:
        found = connection.introspection.get_constraints(cursor, model._meta.db_table)
    indexes = {name: c["columns"] for name, c in found.items() if c["index"] or c["unique"]}
    # Every index the append maintains: the key, (game, seq) and, for events, the
    # partial (game, command_id). None on game alone, which (game, seq) already serves.
    assert ["game_id"] not in indexes.values()
    assert ["game_id", "seq"] in indexes.values()
    foreign_keys = [c["foreign_key"] for c in found.values() if c["foreign_key"]]
    assert foreign_keys == [("games_game", "id")]
