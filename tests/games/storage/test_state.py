"""The event store: hash links, snapshots (periodic, and the final state of a game that
ends), and a per-command cost bounded by snapshots."""

from __future__ import annotations

import json

import pytest

from games import services, storage
from games import table as tables
from games.models import Game, GameEvent, Snapshot
from games.rules import get_ruleset
from games.storage.chain import GENESIS
from tests.games.helpers import game_with_bots, humans_game, make_moderator, play_out

pytestmark = pytest.mark.django_db(transaction=True)


def bot_game(user) -> Game:
    game = game_with_bots(user, bots=2, join=False, level="easy")
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
    storage.heads.clear()
    table = storage.load_table(game)
    assert len(folded) <= 10 + 5  # a batch may straddle the snapshot boundary
    assert storage.replay(game).outcome == table.outcome


def test_a_cold_load_starts_from_the_latest_snapshot_at_or_before_the_callers_head(
    make_user, settings
):
    settings.SNAPSHOT_EVERY = 10
    game = bot_game(make_user())
    seqs = sorted(Snapshot.objects.filter(game=game).values_list("seq", flat=True))
    assert len(seqs) >= 3
    latest = storage.latest_snapshot(game)
    assert latest.seq == seqs[-1]
    assert latest.state == Snapshot.objects.get(game=game, seq=seqs[-1]).state

    # A caller whose row is behind (it read the game before later moves) gets the state
    # at its own head, from the snapshot before it.
    behind = Game.objects.get(pk=game.pk)
    behind.head_seq = seqs[-2] + 1
    assert storage.latest_snapshot(behind).seq == seqs[-2]
    storage.heads.clear()
    table = storage.load_table(behind)
    rules = get_ruleset(game.ruleset)
    expected = None
    for event in GameEvent.objects.filter(game=game, seq__lte=behind.head_seq).order_by("seq"):
        expected = tables.apply(rules, expected, storage.to_event(event))
    assert tables.dump(rules, table) == tables.dump(rules, expected)

    behind.head_seq = seqs[0] - 1
    assert storage.latest_snapshot(behind) is None


def test_cached_state_is_reused_at_the_head(make_user, monkeypatch):
    game = bot_game(make_user())
    with storage.reading(game) as table:
        first = table
    with storage.reading(game) as table:
        assert table is first


def ended(how: str, make_user) -> Game:
    """A game ended by playing it out (bots), by a resignation, or by a moderator."""
    if how == "played out":
        return bot_game(make_user())
    players = [make_user("ana"), make_user("bo")]
    game = humans_game(players)
    if how == "resigned":
        services.game_resign(game_id=game.id, user=players[1])
    else:
        moderator = make_moderator(players[0])
        services.game_abort(game_id=game.id, staff_user=moderator, reason="test")
    return Game.objects.get(pk=game.id)


@pytest.mark.parametrize("how", ["played out", "resigned", "aborted"])
def test_a_game_that_ends_keeps_a_snapshot_of_its_final_state_at_its_head(make_user, settings, how):
    settings.SNAPSHOT_EVERY = 40  # a 2-seat Kingdoms game has 150 events: not a multiple
    game = ended(how, make_user)
    assert game.head_seq % settings.SNAPSHOT_EVERY != 0
    assert game.is_over
    snapshot = Snapshot.objects.get(game=game, seq=game.head_seq)
    replayed = tables.dump(get_ruleset(game.ruleset), storage.replay(game))
    assert snapshot.state == json.loads(json.dumps(replayed))
    assert snapshot.state["aborted" if how == "aborted" else "finished"] is True


def test_a_game_in_progress_has_no_snapshot_before_the_first_interval(make_user, settings):
    settings.SNAPSHOT_EVERY = 50
    players = [make_user("ana"), make_user("bo")]
    game = play_out(humans_game(players), players, moves=2)
    assert game.status == Game.Status.ACTIVE and game.head_seq < 50
    assert not Snapshot.objects.filter(game=game).exists()


def test_loading_an_ended_game_with_a_cold_cache_folds_no_event(make_user, monkeypatch):
    game = ended("resigned", make_user)
    folded = []
    original = tables.apply

    def counting(ruleset, table, event):
        folded.append(event.type)
        return original(ruleset, table, event)

    monkeypatch.setattr(tables, "apply", counting)
    storage.heads.clear()
    table = storage.load_table(game)
    assert folded == [] and table.finished


def test_a_state_held_behind_the_head_is_brought_up_by_the_new_events_not_a_snapshot(
    make_user, monkeypatch
):
    # This process holds the state of a few heads ago: another process wrote the moves
    # since. Loading folds just those events and gives what a full replay gives.
    players = [make_user("ana"), make_user("bo")]
    game = play_out(humans_game(players), players, moves=2)
    rules = get_ruleset(game.ruleset)
    with storage.reading(game) as table:
        held, held_seq = tables.copy(rules, table), game.head_seq
    held_row = Game.objects.get(pk=game.id)
    held_hash = storage.head_hash(held_row)
    game = play_out(game, players, moves=3)
    storage.heads.clear()
    storage.heads.put(storage.Head(held_row, held, held_hash))
    snapshots = []
    monkeypatch.setattr(storage.state, "latest_snapshot", lambda *args: snapshots.append(args))
    table = storage.load_table(game)
    assert snapshots == [] and game.head_seq > held_seq
    assert tables.dump(rules, table) == tables.dump(rules, storage.replay(game))


def test_a_state_held_ahead_of_the_callers_row_is_left_for_the_writer(make_user):
    players = [make_user("ana"), make_user("bo")]
    game = play_out(humans_game(players), players, moves=2)
    behind = Game.objects.get(pk=game.id)
    game = play_out(game, players, moves=1)
    with storage.reading(game):
        pass
    # A reader with an older row loads its own state; the head's stays cached.
    assert storage.load_table(behind) is not None
    held = storage.heads.take(game.id)
    assert held is not None and held.seq == game.head_seq
