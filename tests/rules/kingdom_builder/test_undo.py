"""Undo within one's own turn (table option ``undo``): builds and tile moves of this turn
are taken back one at a time (``move_undone``, the log stays append-only) until a terrain
card is drawn or anything hidden is revealed."""

from __future__ import annotations

import random

import pytest

from games.rules.base import IllegalCommand
from games.rules.kingdom_builder.snapshot import determinize, dump, load
from games.rules.kingdom_builder.state import copy_state
from tests.rules.kingdom_builder.helpers import RULESET, new_game

UNDO = {"type": "undo"}


def play(s, command, seed: int = 0):
    """Decide ``command`` for the seat to act; returns (new state, events)."""
    events = RULESET.decide(s, s.active, command, random.Random(seed))
    after = copy_state(s)
    for event in events:
        after = RULESET.evolve(after, event)
    return after, events


def builds(s):
    return [c for c in RULESET.legal_commands(s, s.active) if c["type"] == "build"]


def test_a_build_of_this_turn_can_be_undone_and_the_board_is_as_before():
    s = new_game(undo=True)
    assert UNDO not in RULESET.legal_commands(s, s.active)
    built, _ = play(s, builds(s)[0])
    assert UNDO in RULESET.legal_commands(built, built.active)
    undone, events = play(built, UNDO)
    assert [(e.type, e.public) for e in events] == [("move_undone", {"seat": s.active})]
    assert dump(undone) == dump(s)


def test_undo_takes_back_the_builds_one_at_a_time_back_to_the_start_of_the_turn():
    s = new_game(undo=True)
    one, _ = play(s, builds(s)[0])
    two, _ = play(one, builds(one)[0])
    back_to_one, _ = play(two, UNDO)
    assert dump(back_to_one) == dump(one)
    back_to_start, _ = play(back_to_one, UNDO)
    assert dump(back_to_start) == dump(s)
    with pytest.raises(IllegalCommand) as refused:
        RULESET.decide(back_to_start, s.active, UNDO, random.Random(0))
    assert refused.value.code == "nothing_to_undo"


def test_a_tile_taken_by_an_undone_build_goes_back_to_its_location():
    s = new_game(undo=True)
    for command in builds(s):
        after, events = play(s, command)
        if any(e.type == "tile_taken" for e in events):
            break
    else:
        pytest.fail("no build next to a location on the first-game board")
    assert after.held[s.active]
    undone, _ = play(after, UNDO)
    assert undone.held[s.active] == [] and undone.tiles_left == s.tiles_left


def test_no_undo_once_the_turn_has_ended_and_a_card_was_drawn():
    s = new_game(undo=True)
    seat = s.active
    while s.active == seat and builds(s):
        s, events = play(s, builds(s)[0])
    if s.active == seat:  # tiles still usable: the player ends the turn
        s, events = play(s, {"type": "end_turn"})
    assert any(e.type == "terrain_card_drawn" for e in events)
    assert s.active != seat
    assert UNDO not in RULESET.legal_commands(s, s.active)
    assert RULESET.legal_commands(s, seat) == []


def test_a_table_without_the_undo_option_never_offers_it():
    s = new_game()  # a table recorded before undo existed
    built, _ = play(s, builds(s)[0])
    assert UNDO not in RULESET.legal_commands(built, built.active)
    with pytest.raises(IllegalCommand) as refused:
        RULESET.decide(built, built.active, UNDO, random.Random(0))
    assert refused.value.code == "nothing_to_undo"


def test_the_undo_survives_a_snapshot_and_replays_from_the_log():
    s = new_game(undo=True)
    one, first = play(s, builds(s)[0])
    two, second = play(one, builds(one)[0])
    loaded = load(dump(two))
    assert dump(loaded) == dump(two)
    assert RULESET.legal_commands(loaded, loaded.active) == RULESET.legal_commands(two, two.active)
    undone, undo_events = play(loaded, UNDO)
    replayed = RULESET.fold([*first, *second, *undo_events], copy_state(s))
    assert dump(replayed) == dump(undone) == dump(one)


def test_every_legal_command_with_undo_is_accepted_and_bots_worlds_have_no_undo():
    s = new_game(undo=True)
    s, _ = play(s, builds(s)[0])
    for command in RULESET.legal_commands(s, s.active):
        RULESET.decide(s, s.active, command, random.Random(0))
    world = determinize(s, s.active, random.Random(1))
    assert UNDO not in RULESET.legal_commands(world, world.active)


def test_with_confirm_end_turn_a_finished_turn_waits_for_end_turn_so_the_last_build_can_go():
    s = new_game(undo=True, confirm_end_turn=True)
    seat = s.active
    while builds(s):
        before_last = s
        s, events = play(s, builds(s)[0])
    # Three built and no tile to use: the turn waits, offering End turn and Undo only.
    assert s.active == seat and not any(e.type == "turn_ended" for e in events)
    assert sorted(c["type"] for c in RULESET.legal_commands(s, seat)) == ["end_turn", "undo"]
    assert RULESET.bot_commands(s, seat) == [{"type": "end_turn"}]
    undone, _ = play(s, UNDO)
    assert dump(undone) == dump(before_last)
    ended, events = play(s, {"type": "end_turn"})
    assert any(e.type == "turn_ended" for e in events) and ended.active != seat


def test_a_table_recorded_without_confirm_end_turn_ends_a_finished_turn_at_once():
    # Older undo tables' logs lack the option: they re-execute as they were played.
    s = new_game(undo=True)
    assert s.options["confirm_end_turn"] is False
    seat = s.active
    while s.active == seat and builds(s):
        s, events = play(s, builds(s)[0])
    if s.active == seat:  # the first-game board's tiles may still be usable
        assert any(c["type"] == "use_tile" for c in RULESET.legal_commands(s, seat))
    else:
        assert any(e.type == "turn_ended" for e in events)


def test_a_new_table_confirms_the_end_of_turn_by_default():
    assert RULESET.clean_options({})["confirm_end_turn"] is True
    events = RULESET.setup(RULESET.clean_options({}), 2, random.Random(0))
    assert events[0].public["options"]["confirm_end_turn"] is True
