"""The event store: hash links, snapshots, and a per-command cost bounded by snapshots."""

from __future__ import annotations

import pytest

from games import services, store
from games.chain import GENESIS
from games.models import Game, GameEvent, Snapshot
from games.rules import get_ruleset
from tests.games.helpers import table_with_bots

pytestmark = pytest.mark.django_db(transaction=True)


def bot_game(user) -> Game:
    game = table_with_bots(user, bots=2, join=False, level="easy")
    services.game_start(game_id=game.id, user=user)
    game.refresh_from_db()
    return game


def test_each_event_links_to_the_previous_hash(make_user):
    game = bot_game(make_user())
    rows = list(GameEvent.objects.filter(game=game).order_by("seq"))
    assert rows[0].prev_hash == GENESIS
    for before, after in zip(rows, rows[1:], strict=False):
        assert after.prev_hash == before.hash
    assert len({r.hash for r in rows}) == len(rows)


def test_command_and_its_id_sit_on_the_first_event_of_a_batch(make_user):
    game = bot_game(make_user())
    for row in GameEvent.objects.filter(game=game):
        assert (row.command is None) == (row.command_id is None)


def test_snapshots_are_written_every_n_events(make_user, settings):
    settings.SNAPSHOT_EVERY = 10
    game = bot_game(make_user())
    seqs = list(Snapshot.objects.filter(game=game).values_list("seq", flat=True))
    assert len(seqs) >= game.head_seq // 10 - 1
    assert all(0 < b - a <= 10 + 5 for a, b in zip(sorted(seqs), sorted(seqs)[1:], strict=False))


def test_loading_with_a_cold_cache_folds_only_the_events_after_the_snapshot(
    make_user, settings, monkeypatch
):
    settings.SNAPSHOT_EVERY = 10
    game = bot_game(make_user())
    rules = get_ruleset(game.ruleset)
    folded = []
    original = type(rules).evolve

    def counting(self, state, event):
        folded.append(event.type)
        return original(self, state, event)

    monkeypatch.setattr(type(rules), "evolve", counting)
    store.state_cache.clear()
    table = store.load_table(game)
    assert len(folded) <= 10 + 5  # a batch may straddle the snapshot boundary
    assert store.replay(game).outcome == table.outcome


def test_cached_state_is_reused_at_the_head(make_user, monkeypatch):
    game = bot_game(make_user())
    with store.reading(game) as table:
        first = table
    with store.reading(game) as table:
        assert table is first
