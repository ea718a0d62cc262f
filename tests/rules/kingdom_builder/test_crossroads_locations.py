"""The Crossroads location tiles: builds, City Hall, Barracks, Wagon, Lighthouse, Crossroads."""

from __future__ import annotations

import random

import pytest

from games.rules.base import IllegalCommand
from games.rules.kingdom_builder.board import NEIGHBOURS, coords
from games.rules.kingdom_builder.crossroads_locations import (
    barracks,
    city_hall,
    foresters_lodge,
    lighthouse,
    monastery,
    outpost,
    wagon,
)
from games.rules.kingdom_builder.scoring import score_state, scoring_settlements
from tests.rules.kingdom_builder.helpers import (
    RULESET,
    build,
    commands_of,
    finish_turn,
    h,
    hexes_in,
    play,
    position,
    types,
    use,
    warrior,
)
from tests.rules.kingdom_builder.helpers import wagon as put_wagon

CROSSROADS = {"crossroads": True}


def hexes(indices) -> set[tuple[int, int]]:
    return {tuple(coords(i)) for i in indices}


def around(r: int, c: int) -> set[tuple[int, int]]:
    return hexes(NEIGHBOURS[h(r, c)])


def refused(s, command) -> str:
    with pytest.raises(IllegalCommand) as error:
        RULESET.decide(s, s.active, command, random.Random(0))
    return error.value.code


def builds(s, seat=None) -> set[tuple[int, int]]:
    return hexes_in(commands_of(s, "build", seat), "hex")


# ---- the build tiles -------------------------------------------------------------------------
def test_foresters_lodge_builds_on_forest_and_monastery_on_canyon():
    s = position({0: [(5, 5)]}, {(5, 6): "T", (12, 12): "T"}, fill="D", **CROSSROADS)
    assert hexes(foresters_lodge(s, 0)) == {(5, 6)}
    s = position({0: [(5, 5)]}, {(5, 6): "C", (12, 12): "C"}, fill="D", **CROSSROADS)
    assert hexes(monastery(s, 0)) == {(5, 6)}
    s = position({0: [(1, 1)]}, {(5, 6): "C", (12, 12): "C"}, fill="D", **CROSSROADS)
    assert hexes(monastery(s, 0)) == {(5, 6), (12, 12)}


def test_outpost_builds_on_any_of_the_five_terrains_next_to_yours_if_possible():
    s = position({0: [(5, 5)]}, {(5, 6): "W", (4, 5): "C", (6, 5): "F"}, **CROSSROADS)
    assert hexes(outpost(s, 0)) == around(5, 5) - {(5, 6)}


# ---- City Hall -------------------------------------------------------------------------------
def test_city_hall_covers_seven_empty_hexes_next_to_your_settlements():
    s = position({0: [(5, 3)]}, **CROSSROADS)
    centres = hexes(city_hall(s, 0))
    assert (5, 5) in centres  # its hex (5, 4) touches (5, 3)
    assert (5, 4) not in centres  # would cover the settlement itself
    assert (5, 7) not in centres  # too far: no hex of it touches ours
    assert (0, 3) not in centres  # its ring would leave the board
    s = position({0: [(5, 3)]}, {(4, 5): "W"}, **CROSSROADS)
    assert (5, 5) not in hexes(city_hall(s, 0))  # every hex of the 5 terrains


def test_city_hall_is_built_once_and_counts_as_seven_settlements():
    s = position(
        {0: [(5, 3)]},
        locations={(3, 5): "farm"},
        held={0: [("city_hall", (0, 0))]},
        **CROSSROADS,
    )
    s, events = play(s, use("city_hall", (5, 5)))
    assert types(events) == ["city_hall_built", "tile_taken"]  # (4, 5) touches the farm
    assert hexes(s.city_hall[0]) == {(5, 5)} | around(5, 5)
    assert all(s.owner[i] == 0 for i in s.city_hall[0]) and s.supply[0] == 39
    assert city_hall(s, 0) == []  # once per game
    assert len(scoring_settlements(s)[0]) == 8
    s.cards = ["citizens", "hermits", "knights"]
    line = score_state(s)[0]
    assert (line["citizens"], line["hermits"], line["knights"]) == (4, 1, 8)


def test_you_build_next_to_your_city_hall_and_it_never_moves():
    s = position({0: [(5, 3)]}, held={0: [("city_hall", (0, 0)), ("paddock", (0, 1))]})
    s.options = {**s.options, **CROSSROADS}
    s, _ = play(s, use("city_hall", (5, 5)))
    assert (5, 7) in builds(s) and (9, 9) not in builds(s)
    sources = {tuple(c["from"]) for c in commands_of(s, "use_tile") if "from" in c}
    assert sources == {(5, 3)}


# ---- Barracks --------------------------------------------------------------------------------
def test_a_warrior_stops_everybody_building_next_to_it():
    s = position({0: [(5, 5)], 1: [(4, 8)]}, held={0: [("barracks", (0, 0))]}, **CROSSROADS)
    s, events = play(s, use("barracks", (5, 6)))
    assert types(events) == ["piece_placed"] and events[0].public["piece"] == "warrior"
    assert builds(s) == around(5, 5) - around(5, 6) - {(5, 6)}
    assert refused(s, build(4, 6)) == "next_to_warrior"
    s.active = 1
    assert not builds(s, 1) & around(5, 6)  # the other player is blocked too


def test_wagons_and_ships_may_stand_next_to_a_warrior():
    s = position({0: [(5, 5)]}, held={0: [("wagon", (0, 0))]}, **CROSSROADS)
    s = warrior(s, 1, (5, 7))
    assert (5, 6) in hexes(wagon(s, 0)["place"])
    s, events = play(s, use("wagon", (5, 6)))
    assert types(events) == ["piece_placed"] and s.wagon[0] == h(5, 6)


def test_warriors_go_next_to_yours_if_possible_and_may_be_taken_back():
    s = position({0: [(5, 5)]}, held={0: [("barracks", (0, 0))]}, **CROSSROADS)
    assert hexes(barracks(s, 0)["place"]) == around(5, 5)
    s = warrior(s, 0, (12, 12))
    targets = barracks(s, 0)
    assert hexes(targets["take_back"]) == {(12, 12)}
    assert not hexes(targets["place"]) & around(12, 12)  # never next to another warrior
    s, events = play(s, {"type": "take_back_piece", "tile": "barracks", "hex": [12, 12]})
    assert types(events) == ["piece_taken_back"] and s.warriors[0] == [] and not s.guarded


def test_each_player_has_two_warriors():
    s = position({0: [(5, 5)]}, held={0: [("barracks", (0, 0))]}, **CROSSROADS)
    s = warrior(warrior(s, 0, (12, 12)), 0, (15, 2))
    assert barracks(s, 0)["place"] == []
    assert RULESET.view(s, None)["players"][0]["warriors_left"] == 0


# ---- Wagon and Lighthouse ----------------------------------------------------------------------
def test_the_wagon_goes_on_an_empty_hex_of_the_five_terrains_or_a_mountain():
    s = position({0: [(5, 5)]}, {(5, 6): "M", (4, 5): "W"}, **CROSSROADS)
    assert hexes(wagon(s, 0)["place"]) == around(5, 5) - {(4, 5)}


def test_the_wagon_counts_as_your_settlement_for_the_adjacency_rule():
    s = position({0: [(5, 5)]}, **CROSSROADS)
    s = put_wagon(s, 0, (12, 12))
    assert builds(s) == around(5, 5) | around(12, 12)
    assert h(12, 12) not in s.settlements[0] and len(scoring_settlements(s)[0]) == 1


def test_the_wagon_moves_up_to_three_hexes_over_empty_land():
    s = position({0: [(5, 5)]}, held={0: [("wagon", (0, 0))]}, **CROSSROADS)
    s = put_wagon(s, 0, (12, 12))
    moves = wagon(s, 0)
    assert len(moves["move"][h(12, 12)]) == 36 and hexes(moves["take_back"]) == {(12, 12)}
    s, events = play(s, use("wagon", (12, 15), (12, 12)))
    assert types(events) == ["piece_moved"] and s.wagon[0] == h(12, 15)
    s = position({0: [(12, 13)]}, {(11, 12): "W", (13, 12): "W"}, **CROSSROADS)
    s = put_wagon(s, 0, (12, 12))
    reach = hexes(wagon(s, 0)["move"][h(12, 12)])
    assert (12, 11) in reach and (12, 14) not in reach  # around the water, not through ours


def test_a_wagon_takes_no_location_tile_and_may_be_taken_back():
    s = position(
        {0: [(5, 5)]}, locations={(12, 13): "farm"}, held={0: [("wagon", (0, 0))]}, **CROSSROADS
    )
    s = put_wagon(s, 0, (12, 10))
    s, events = play(s, use("wagon", (12, 12), (12, 10)))
    assert types(events) == ["piece_moved"] and len(s.held[0]) == 1
    s.held[0][0]["used"] = False
    s, events = play(s, {"type": "take_back_piece", "tile": "wagon", "hex": [12, 12]})
    assert types(events) == ["piece_taken_back"] and s.wagon[0] == -1


def test_the_ship_sails_on_empty_water_only():
    water = {(5, 6): "W", (5, 7): "W", (5, 8): "W", (5, 9): "W", (5, 10): "W", (15, 15): "W"}
    s = position({0: [(5, 5)], 1: [(5, 9)]}, water, held={0: [("lighthouse", (0, 0))]})
    s.options = {**s.options, **CROSSROADS}
    assert hexes(lighthouse(s, 0)["place"]) == {(5, 6)}  # adjacent if possible
    s, _ = play(s, use("lighthouse", (5, 6)))
    assert s.ship[0] == h(5, 6) and s.owner[h(5, 6)] == 0
    assert hexes(lighthouse(s, 0)["move"][h(5, 6)]) == {(5, 7), (5, 8)}  # (5, 9) is settled
    assert hexes(lighthouse(s, 0)["take_back"]) == {(5, 6)} and lighthouse(s, 0)["place"] == []
    assert builds(s) == (around(5, 5) | around(5, 6)) - {(5, 5), (5, 6), (5, 7)}  # ship counts


# ---- Crossroads --------------------------------------------------------------------------------
def test_crossroads_draws_a_second_card_then_the_player_chooses_and_discards_both():
    letters = {(10, c): "T" for c in range(4)} | {(12, c): "D" for c in range(4)}
    s = position({0: [(5, 5)]}, letters, held={0: [("crossroads", (0, 0))]}, **CROSSROADS)
    s.held[0][0]["fresh"] = True  # taken this turn: the extra card comes already
    s.hands[1], s.draw_pile = ["grass"], ["forest", "desert", "canyon", *["grass"] * 9]
    for hex_ in [(5, 6), (5, 7), (5, 8)]:
        s, events = play(s, build(*hex_))
    drawn = [e for e in events if e.type == "terrain_card_drawn"]
    assert [e.public.get("extra", False) for e in drawn[:2]] == [False, True]
    assert s.hands[0] == ["forest", "desert"]
    s = finish_turn(s)
    assert s.active == 0 and s.phase == "choose_terrain"
    assert commands_of(s, "play_terrain_card") == [
        {"type": "play_terrain_card", "terrain": "desert"},
        {"type": "play_terrain_card", "terrain": "forest"},
    ]
    s, _ = play(s, {"type": "play_terrain_card", "terrain": "desert"})
    assert s.card == "desert"
    s = finish_turn(s)
    assert s.discard[-3:] == ["grass", "desert", "forest"]  # seat 1's card, then both


def test_the_crossroads_tile_is_never_used_by_hand():
    s = position({0: [(5, 5)]}, held={0: [("crossroads", (0, 0))]}, **CROSSROADS)
    assert not commands_of(s, "use_tile")
    assert refused(s, {"type": "use_tile", "tile": "crossroads", "to": [5, 6]}) == "passive_tile"


# ---- the pieces' own rulings --------------------------------------------------------------------
def test_a_ship_may_stand_and_sail_next_to_a_warrior():
    water = {(5, 6): "W", (5, 7): "W", (5, 8): "W"}
    s = position({0: [(5, 5)]}, water, held={0: [("lighthouse", (0, 0))]}, **CROSSROADS)
    s = warrior(s, 1, (4, 7))  # guards (5, 6) and (5, 7)
    assert {(5, 6), (5, 7)} <= hexes(s.guarded)
    s, events = play(s, use("lighthouse", (5, 6)))
    assert types(events) == ["piece_placed"] and s.ship[0] == h(5, 6)
    assert hexes(lighthouse(s, 0)["move"][h(5, 6)]) == {(5, 7), (5, 8)}


def test_a_wagons_move_is_blocked_by_warriors_and_other_wagons():
    lane = {(12, c): "G" for c in range(8, 18)}  # a strip of land in a lake
    s = position({0: [(12, 8)]}, lane, fill="W", held={0: [("wagon", (0, 0))]}, **CROSSROADS)
    s = put_wagon(s, 0, (12, 12))
    assert hexes(wagon(s, 0)["move"][h(12, 12)]) == {(12, c) for c in (9, 10, 11, 13, 14, 15)}
    s = warrior(put_wagon(s, 1, (12, 14)), 1, (12, 10))
    assert hexes(wagon(s, 0)["move"][h(12, 12)]) == {(12, 11), (12, 13)}
    assert refused(s, use("wagon", (12, 15), (12, 12))) == "illegal_target"  # not past them
    assert refused(s, use("wagon", (12, 14), (12, 12))) == "illegal_target"  # nor onto one


def test_a_ships_move_path_must_be_free_of_ships():
    channel = {(12, c): "W" for c in range(9, 17)}
    s = position({0: [(11, 9)]}, channel, held={0: [("lighthouse", (0, 0))]}, **CROSSROADS)
    s = put_wagon(s, 0, (12, 12), "ship")
    assert hexes(lighthouse(s, 0)["move"][h(12, 12)]) == {(12, c) for c in (9, 10, 11, 13, 14, 15)}
    s = put_wagon(s, 1, (12, 14), "ship")
    assert hexes(lighthouse(s, 0)["move"][h(12, 12)]) == {(12, 9), (12, 10), (12, 11), (12, 13)}
    assert refused(s, use("lighthouse", (12, 15), (12, 12))) == "illegal_target"


def tile_targets(s) -> dict[str, set[tuple[int, int]]]:
    """Per tile kind, the hexes its legal commands put something on."""
    found: dict[str, set[tuple[int, int]]] = {}
    for command in commands_of(s, "use_tile"):
        found.setdefault(command["tile"], set()).add(tuple(command["to"]))
    return found


def test_warriors_also_block_tile_builds_and_moves():
    tiles = ["farm", "outpost", "paddock", "harbor", "city_hall"]
    held = {0: [(kind, (0, i)) for i, kind in enumerate(tiles)]}
    s = position({0: [(5, 4)]}, {(3, 6): "W"}, held=held, **CROSSROADS)
    before = tile_targets(s)
    assert before["harbor"] == {(3, 6)} and (5, 6) in before["city_hall"]
    s = warrior(s, 1, (4, 6))  # the other player's warrior guards (4, 5), (5, 5), (3, 6)...
    blocked = hexes(s.guarded) | {(4, 6)}
    after = tile_targets(s)
    assert before["farm"] - after["farm"] == {(4, 5), (5, 5)}
    assert before["outpost"] - after["outpost"] == {(4, 5), (5, 5)}
    assert before["paddock"] - after["paddock"] == {(3, 5), (5, 6)}  # jumps into the guard
    assert "harbor" not in after  # its only water hex lies next to the warrior
    assert (5, 6) not in after["city_hall"]  # that city hall would cover guarded hexes
    assert not {t for kind in ("farm", "outpost", "paddock") for t in after[kind]} & blocked
    assert refused(s, use("farm", (5, 5))) == "illegal_target"
    assert refused(s, use("paddock", (5, 6), (5, 4))) == "illegal_target"


def test_warriors_also_block_walls_resettlement_steps_and_caravan_stops():
    s = position(
        {0: [(5, 4)]},
        {(5, 6): "W"},
        held={0: [("quarry", (0, 0)), ("caravan", (0, 1))]},
        nomad_held={0: [("resettlement", (9, 9))]},
        nomads=True,
        **CROSSROADS,
    )
    before = tile_targets(s)
    assert {(4, 5), (5, 5)} <= before["quarry"] and (5, 5) in before["caravan"]
    s = warrior(s, 1, (4, 6))
    after = tile_targets(s)
    assert before["quarry"] - after["quarry"] == {(4, 5), (5, 5)}
    assert (5, 5) not in after["caravan"]  # the slide east would stop next to the warrior
    s, _ = play(s, {"type": "use_nomad_tile", "tile": "resettlement"})
    steps = hexes_in(commands_of(s, "move_settlement"), "to")
    assert steps == around(5, 4) - {(4, 5), (5, 5)}


def test_each_player_has_one_wagon_and_one_ship():
    s = position(
        {0: [(5, 5)]}, {(5, 6): "W"}, held={0: [("wagon", (0, 0)), ("lighthouse", (0, 1))]}
    )
    s.options = {**s.options, **CROSSROADS}
    s = put_wagon(put_wagon(s, 1, (12, 12)), 1, (15, 15), "ship")
    assert wagon(s, 0)["place"] and lighthouse(s, 0)["place"]  # theirs are not ours
    s = put_wagon(put_wagon(s, 0, (4, 5)), 0, (5, 6), "ship")
    assert wagon(s, 0)["place"] == [] and lighthouse(s, 0)["place"] == []
    placing = [c for c in commands_of(s, "use_tile") if "from" not in c]
    assert placing == []  # only moves and taking back are left
    assert refused(s, use("wagon", (6, 5))) == "illegal_target"
    s, _ = play(s, {"type": "take_back_piece", "tile": "wagon", "hex": [4, 5]})
    assert s.wagon[0] == -1 and wagon(s, 0)["place"]  # back in the box: placeable again
