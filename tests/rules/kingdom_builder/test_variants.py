"""Table options: boards, cards, and the terrain-draw variants."""

from __future__ import annotations

import random

import pytest

from games.rules.base import IllegalCommand
from games.rules.kingdom_builder.board import BASE_SECTIONS
from games.rules.kingdom_builder.state import CHOOSE_TERRAIN, TURN
from tests.rules.kingdom_builder.helpers import (
    RULESET,
    build,
    new_game,
    play,
    position,
    types,
)


def finish_turn(s):
    """Play the active seat's cheapest way to the end of its turn (first builds)."""
    seat = s.active
    while s.active == seat and not s.finished:
        commands = RULESET.legal_commands(s, seat)
        command = next((c for c in commands if c["type"] == "end_turn"), commands[0])
        s, _ = play(s, command)
    return s


# ---- options -------------------------------------------------------------------------------
def test_default_options_are_a_random_board_and_standard_draw():
    options = RULESET.clean_options({})
    assert options["board"] == "random" and options["terrain_draw"] == "standard"
    assert options["designer_no_terrain"] is False and options["cards"] is None


def test_a_random_board_uses_four_different_base_sections_upright_or_rotated():
    rotations = set()
    for seed in range(12):
        s = new_game(seed=seed, board="random")
        names = [name for name, _ in s.layout]
        assert len(set(names)) == 4 and set(names) <= set(BASE_SECTIONS)
        rotations |= {rot for _, rot in s.layout}
        assert len(s.cards) == 3 and len(set(s.cards)) == 3
    assert rotations == {True, False}


def test_a_chosen_board_lays_the_given_sections_and_rotations():
    s = new_game(
        board="chosen",
        sections=["barn", "oracle", "harbor", "tower"],
        rotations=[True, False, False, True],
        cards=["lords", "hermits", "miners"],
    )
    assert s.layout == (("barn", True), ("oracle", False), ("harbor", False), ("tower", True))
    assert s.cards == ["lords", "hermits", "miners"]


def test_first_game_preset_keeps_given_cards():
    s = new_game(board="first_game", cards=["farmers", "citizens", "workers"])
    assert s.cards == ["farmers", "citizens", "workers"]


@pytest.mark.parametrize(
    "options",
    [
        {"board": "chosen"},
        {"board": "chosen", "sections": ["barn", "barn", "oracle", "tower"]},
        {"board": "chosen", "sections": ["barn", "farm", "oracle", "quarry"]},
        {"board": "chosen", "sections": ["barn", "farm", "oracle", "tower"], "rotations": [1]},
        {"sections": ["barn", "farm", "oracle", "tower"]},
        {"cards": ["lords", "lords", "miners"]},
        {"cards": ["lords", "miners"]},
        {"terrain_draw": "psychic"},
        {"draft_size": 3.0},
        {"designer_no_terrain": "yes"},
        {"colour": "red"},
    ],
)
def test_bad_table_options_are_refused(options):
    with pytest.raises(IllegalCommand):
        RULESET.clean_options(options)


# ---- draft ---------------------------------------------------------------------------------
def test_draft_takes_a_face_up_card_or_the_unknown_top_card():
    s = new_game(terrain_draw="draft", draft_size=3)
    assert len(s.face_up) == 3 and all(hand == [] for hand in s.hands)
    assert s.phase == CHOOSE_TERRAIN
    commands = RULESET.legal_commands(s, s.active)
    assert {"type": "draw_terrain_card"} in commands
    face_up = sorted({c["terrain"] for c in commands if c["type"] == "take_terrain_card"})
    assert face_up == sorted(set(s.face_up))
    refill = s.draw_pile[0]
    taken, events = play(s, {"type": "take_terrain_card", "terrain": face_up[0]})
    assert types(events)[:2] == ["terrain_card_revealed", "terrain_card_drawn"]
    assert events[1].public["terrain"] == refill  # the refill is laid face up for all
    assert taken.card == face_up[0] and len(taken.face_up) == 3
    top = s.draw_pile[0]
    blind, events = play(s, {"type": "draw_terrain_card"})
    assert blind.card == top and events[0].public["source"] == "draw_pile"


# ---- hand ----------------------------------------------------------------------------------
def test_hand_variant_plays_one_of_several_cards_and_draws_back_up():
    s = new_game(terrain_draw="hand", hand_size=3)
    seat = s.active
    assert all(len(hand) == 3 for hand in s.hands) and s.phase == CHOOSE_TERRAIN
    choice = s.hands[seat][1]
    s, events = play(s, {"type": "play_terrain_card", "terrain": choice})
    assert s.card == choice and len(s.hands[seat]) == 2
    s = finish_turn(s)
    assert len(s.hands[seat]) == 3


def test_hand_variant_refuses_a_card_not_in_hand():
    s = new_game(terrain_draw="hand", hand_size=2)
    missing = next(t for t in ["grass", "canyon", "desert"] if t not in s.hands[s.active])
    with pytest.raises(IllegalCommand) as refused:
        RULESET.decide(s, s.active, {"type": "play_terrain_card", "terrain": missing}, None)
    assert refused.value.code == "card_not_in_hand"


# ---- choose --------------------------------------------------------------------------------
def test_choose_variant_picks_any_terrain_without_cards():
    s = new_game(terrain_draw="choose")
    assert s.draw_pile == [] and all(hand == [] for hand in s.hands)
    commands = RULESET.legal_commands(s, s.active)
    assert [c["terrain"] for c in commands] == [
        "grass",
        "canyon",
        "desert",
        "flower_field",
        "forest",
    ]
    s, _ = play(s, {"type": "choose_terrain", "terrain": "forest"})
    assert s.card == "forest" and s.phase == TURN


def test_choose_variant_picks_again_when_the_chosen_terrain_runs_out():
    s = position({}, {(2, 2): "G", (9, 9): "D"}, fill="C", card="grass", terrain_draw="choose")
    s, events = play(s, build(2, 2))
    assert types(events)[1:] == ["terrain_exhausted"] and s.phase == CHOOSE_TERRAIN
    assert {c["terrain"] for c in RULESET.legal_commands(s, 0)} == {"canyon", "desert"}
    s, _ = play(s, {"type": "choose_terrain", "terrain": "desert"})
    assert s.placed == 1 and s.card == "desert"


# ---- sceadeau ------------------------------------------------------------------------------
def test_sceadeau_plays_one_of_two_then_keeps_or_swaps_the_other_on_turn_two():
    s = new_game(terrain_draw="sceadeau", players=2)
    seat = s.active
    assert all(len(hand) == 2 for hand in s.hands)
    first, kept = s.hands[seat]
    s, _ = play(s, {"type": "play_terrain_card", "terrain": first})
    s = finish_turn(s)
    assert s.hands[seat] == [kept]  # no draw after turn 1: the other card is kept
    while s.active != seat:
        s = finish_turn(s)
    assert s.turns[seat] == 2 and s.phase == CHOOSE_TERRAIN
    commands = RULESET.legal_commands(s, seat)
    assert {"type": "play_terrain_card", "terrain": kept} in commands
    assert {"type": "swap_terrain_card"} in commands
    top = s.draw_pile[0]
    swapped, events = play(s, {"type": "swap_terrain_card"})
    assert types(events)[:2] == ["terrain_card_discarded", "terrain_card_revealed"]
    assert swapped.card == top and swapped.hands[seat] == []
    kept_state, _ = play(s, {"type": "play_terrain_card", "terrain": kept})
    assert kept_state.card == kept
    after = finish_turn(kept_state)
    assert len(after.hands[seat]) == 1  # from turn 2 on, draw as usual
    while after.active != seat:
        after = finish_turn(after)
    assert after.phase == TURN and after.card is not None  # turn 3 reveals by itself


def test_every_variant_plays_to_the_end():
    for draw in ("standard", "draft", "hand", "choose", "sceadeau"):
        rng = random.Random(5)
        s = RULESET.fold(RULESET.setup({"terrain_draw": draw}, 3, rng))
        while not s.finished:
            command = rng.choice(RULESET.legal_commands(s, s.active))
            for event in RULESET.decide(s, s.active, command, rng):
                s = RULESET.evolve(s, event)
        assert len(set(s.turns)) == 1 and RULESET.outcome(s) is not None
