"""The expansions as table options: seats, section and card pools, the opening facts."""

from __future__ import annotations

import random

import pytest

from games.rules.base import IllegalCommand
from games.rules.kingdom_builder.board import (
    BASE_SECTIONS,
    CROSSROADS_SECTIONS,
    NOMADS_SECTIONS,
    section,
)
from games.rules.kingdom_builder.cards import NOMADS_CARDS
from tests.rules.kingdom_builder.helpers import RULESET, new_game

ALL = {"nomads": True, "crossroads": True}


def test_the_expansions_are_off_by_default():
    options = RULESET.clean_options({})
    assert options["nomads"] is False and options["crossroads"] is False
    assert options["crossroads_pieces_score"] is False
    setup = RULESET.setup({}, 2, random.Random(0))[0].public
    assert not {"nomad_spaces", "walls", "tasks"} & set(setup)


def test_a_base_game_records_the_same_facts_and_snapshots_as_before_the_expansions():
    events = RULESET.setup({}, 2, random.Random(0))
    assert not {"nomads", "crossroads", "crossroads_pieces_score"} & set(
        events[0].public["options"]
    )
    s = RULESET.fold(events)
    assert s.options["nomads"] is False  # filled in when folded
    assert "expansions" not in RULESET.dump(s)
    assert RULESET.dump(RULESET.load(RULESET.dump(s))) == RULESET.dump(s)
    with_both = RULESET.fold(RULESET.setup(ALL, 2, random.Random(0)))
    assert RULESET.dump(with_both)["expansions"]["walls_left"] == 25


def test_five_players_only_with_nomads():
    assert RULESET.seat_range(RULESET.clean_options({})) == (2, 4)
    assert RULESET.seat_range(RULESET.clean_options({"nomads": True})) == (2, 5)
    assert RULESET.seat_range(RULESET.clean_options({"crossroads": True})) == (2, 4)
    with pytest.raises(IllegalCommand) as refused:
        RULESET.setup({}, 5, random.Random(0))
    assert refused.value.code == "bad_player_count"
    s = new_game(players=5, nomads=True)
    assert s.supply == [40] * 5 and len(RULESET.view(s, 4)["players"]) == 5


def test_a_random_board_draws_from_every_section_in_play():
    seen: set[str] = set()
    for seed in range(40):
        s = new_game(seed=seed, board="random", **ALL)
        names = [name for name, _ in s.layout]
        assert len(set(names)) == 4
        seen |= set(names)
    assert seen & set(NOMADS_SECTIONS) and seen & set(CROSSROADS_SECTIONS)
    assert seen <= {*BASE_SECTIONS, *NOMADS_SECTIONS, *CROSSROADS_SECTIONS}
    for seed in range(10):
        names = {name for name, _ in new_game(seed=seed, board="random", nomads=True).layout}
        assert not names & set(CROSSROADS_SECTIONS)


def test_nomads_lays_twenty_five_walls_and_adds_its_three_cards_to_the_pool():
    s = new_game(nomads=True)
    assert s.walls_left == 25 and s.walls == set()
    cards = set()
    for seed in range(30):
        cards |= set(new_game(seed=seed, board="random", nomads=True).cards)
    assert cards & set(NOMADS_CARDS)


def test_expansion_sections_and_cards_need_their_expansion():
    chosen = {"board": "chosen", "sections": ["quarry", "barn", "farm", "city_hall_and_outpost"]}
    with pytest.raises(IllegalCommand):
        RULESET.clean_options(chosen)
    with pytest.raises(IllegalCommand):
        RULESET.clean_options({**chosen, "nomads": True})
    assert RULESET.clean_options({**chosen, **ALL})["sections"] == chosen["sections"]
    with pytest.raises(IllegalCommand):
        RULESET.clean_options({"cards": ["families", "lords", "knights"]})
    cleaned = RULESET.clean_options({"cards": ["families", "lords", "knights"], "nomads": True})
    assert cleaned["cards"] == ["families", "lords", "knights"]
    with pytest.raises(IllegalCommand):
        RULESET.clean_options({"crossroads_pieces_score": True})
    with pytest.raises(IllegalCommand):
        RULESET.clean_options({"nomads": "yes"})


def test_the_expansion_locations_hold_two_tiles_each():
    s = new_game(
        board="chosen",
        sections=["quarry", "caravan", "monastery_and_wagon", "barracks_and_crossroads"],
        **ALL,
    )
    kinds = sorted(set(s.board.locations.values()))
    assert kinds == ["barracks", "caravan", "crossroads", "monastery", "quarry", "wagon"]
    assert set(s.tiles_left.values()) == {2}
    assert len(s.board.castles) == 2 and len(s.board.nomad_spaces) == 4  # quarry's 3, caravan's 1


# ---- the expansions' sections ------------------------------------------------------------------
def _letters_at(name: str, letter: str, rotated: bool) -> set[tuple[int, int]]:
    rows = section(name, rotated).rows
    return {(r, c) for r, row in enumerate(rows) for c, ch in enumerate(row) if ch == letter}


@pytest.mark.parametrize("name", CROSSROADS_SECTIONS)
def test_each_crossroads_section_has_one_castle_and_two_different_locations(name):
    for rotated in (False, True):
        laid = section(name, rotated)
        assert len(laid.castles) == 1 and not laid.nomad_spaces
        assert set(laid.castles) == _letters_at(name, "S", rotated)
        kinds = [kind for _, _, kind in laid.locations]
        # The section is named after its two locations ("monastery_and_wagon").
        assert len(kinds) == 2 and set(kinds) == set(name.split("_and_"))
        assert {(r, c) for r, c, _ in laid.locations} == _letters_at(name, "L", rotated)


# Nomads sections as the board data lays them (provenance in boards.json): no castle, nomad
# spaces instead; Quarry has one quarry hex and three nomad spaces, Caravan two caravan hexes.
NOMADS_CONTENTS = {
    "quarry": (["quarry"], 3),
    "caravan": (["caravan", "caravan"], 1),
    "village": (["village", "village"], 1),
    "garden": (["garden", "garden"], 1),
}


@pytest.mark.parametrize("name", NOMADS_SECTIONS)
def test_each_nomads_section_has_nomad_spaces_and_no_castle(name):
    kinds, spaces = NOMADS_CONTENTS[name]
    for rotated in (False, True):
        laid = section(name, rotated)
        assert laid.castles == () and _letters_at(name, "S", rotated) == set()
        assert [kind for _, _, kind in laid.locations] == kinds
        assert {(r, c) for r, c, _ in laid.locations} == _letters_at(name, "L", rotated)
        assert len(laid.nomad_spaces) == spaces
        assert set(laid.nomad_spaces) == _letters_at(name, "N", rotated)


@pytest.mark.parametrize("names", [NOMADS_SECTIONS, CROSSROADS_SECTIONS])
def test_every_expansion_location_holds_two_tiles_at_the_start(names):
    events = RULESET.setup(
        {"board": "chosen", "sections": list(names), "rotations": [False, True] * 2, **ALL},
        2,
        random.Random(0),
    )
    s = RULESET.fold(events)
    expected = sum(len(section(name).locations) for name in names)
    assert len(s.board.locations) == expected
    assert s.tiles_left == dict.fromkeys(s.board.locations, 2)
    assert {loc["tiles"] for loc in events[0].public["locations"]} == {2}
    # Every nomad space laid gets its one face-up nomad tile.
    assert set(s.nomad_tiles) == set(s.board.nomad_spaces)
    assert all(tile is not None for tile in s.nomad_tiles.values())
