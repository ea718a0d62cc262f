"""The 10 Kingdom Builder cards: hand-counted positions and each card's maximum."""

from __future__ import annotations

import random

from games.rules.kingdom_builder.board import board_from_grid
from games.rules.kingdom_builder.cards import (
    citizens,
    discoverers,
    farmers,
    fishermen,
    groups,
    hermits,
    knights,
    lords,
    merchants,
    miners,
    workers,
)
from games.rules.kingdom_builder.scoring import score_state
from tests.rules.kingdom_builder.helpers import build, grid, h, play, position, use


def board(letters=None, fill="G"):
    return board_from_grid(grid(letters, fill))


def own(*hexes) -> set[int]:
    return {h(r, c) for r, c in hexes}


def row(r: int) -> list[tuple[int, int]]:
    return [(r, c) for c in range(20)]


# ---- hand-counted positions ----------------------------------------------------------------
def test_fishermen_pay_one_per_settlement_next_to_water_not_on_it():
    b = board({(5, 5): "W", (5, 6): "W"})
    players = {0: own((5, 4), (4, 5), (5, 7), (10, 10))}
    assert fishermen(b, players, 0) == 3
    players = {0: own((5, 5))}  # standing on water, next to water
    assert fishermen(b, players, 0) == 0


def test_miners_pay_one_per_settlement_next_to_a_mountain():
    b = board({(5, 5): "M"})
    assert miners(b, {0: own((5, 4), (5, 6), (10, 10))}, 0) == 2


def test_workers_pay_one_per_settlement_next_to_a_location_or_castle():
    b = board({(5, 5): "S", (10, 10): "L", (10, 12): "L"})
    players = {0: own((5, 4), (10, 11), (10, 9), (0, 0))}
    assert workers(b, players, 0) == 3  # (10, 11) touches two special hexes: still 1


def test_merchants_pay_four_per_linked_location_or_castle():
    b = board({(5, 5): "L", (5, 9): "L", (15, 15): "S", (15, 19): "L"})
    chain = [(5, 6), (5, 7), (5, 8)]
    assert merchants(b, {0: own(*chain, (15, 14))}, 0) == 8  # lone castle group scores 0
    second = [(15, 16), (15, 17), (15, 18)]
    assert merchants(b, {0: own(*chain, *second)}, 0) == 16  # groups need not join


def test_merchants_count_a_hex_linked_by_two_groups_once():
    b = board({(5, 5): "L", (5, 9): "L", (7, 10): "S"})
    first = [(5, 6), (5, 7), (5, 8)]  # links (5, 5) and (5, 9)
    second = [(6, 10)]  # links (5, 9) and the castle (7, 10)
    assert len(groups(own(*first, *second))) == 2
    assert merchants(b, {0: own(*first, *second)}, 0) == 12


def test_discoverers_pay_one_per_row_with_a_settlement():
    assert discoverers(board(), {0: own((0, 0), (0, 5), (5, 5), (19, 19))}, 0) == 3


def test_knights_pay_two_per_settlement_in_the_fullest_row():
    players = {0: own((3, 0), (3, 4), (3, 9), (3, 19), (5, 5), (5, 6))}
    assert knights(board(), players, 0) == 8
    assert knights(board(), {0: set()}, 0) == 0


def test_knights_scoring_terminates_on_any_board():
    rng = random.Random(3)
    for _ in range(200):
        letters = {(r, c): rng.choice("GCDFTWMSL") for r in range(20) for c in range(20)}
        b = board(letters)
        hexes = rng.sample(range(400), rng.randrange(0, 41))
        best = max([sum(1 for i in hexes if i // 20 == r) for r in range(20)], default=0)
        assert knights(b, {0: set(hexes)}, 0) == 2 * best


def test_hermits_pay_one_per_separate_group():
    players = {0: own((0, 0), (0, 1), (5, 5), (10, 10), (11, 10))}
    assert hermits(board(), players, 0) == 3


def test_citizens_pay_one_per_two_settlements_of_the_largest_group():
    big = [(5, 1), (5, 2), (5, 3), (5, 4), (5, 5)]
    players = {0: own(*big, (10, 1), (10, 2), (10, 3))}
    assert citizens(board(), players, 0) == 2


def test_farmers_pay_three_per_settlement_in_the_emptiest_sector():
    players = {0: own((0, 0), (0, 1), (0, 2), (0, 10), (0, 11), (10, 0), (19, 19))}
    assert farmers(board(), players, 0) == 3
    assert farmers(board(), {0: own((0, 0), (0, 10), (10, 0))}, 0) == 0  # one sector empty


def test_lords_pay_twelve_for_most_and_six_for_second_most_per_sector():
    players = {
        0: own((0, 0), (0, 1), (0, 2), (10, 0), (10, 1)),
        1: own((1, 0), (11, 0), (11, 1), (19, 19), (19, 18), (19, 17), (19, 16)),
    }
    # sector 0: 3 v 1; sector 1: 0 v 0; sector 2: 2 v 2; sector 3: 0 v 4
    assert lords(board(), players, 0) == 12 + 12 + 12 + 6
    assert lords(board(), players, 1) == 6 + 12 + 12 + 12


def test_lords_pay_a_player_with_no_settlement_in_a_sector_when_zero_is_second():
    players = {0: own((0, 0)), 1: own((19, 19))}
    # sector 0: 1 v 0 -> seat 1 is second with none there; sector 3 the other way round.
    assert lords(board(), players, 1) == 6 + 12 + 12 + 12


def test_lords_tied_players_all_get_the_full_amount_then_second_count_gets_six():
    players = {
        0: own((0, 0), (0, 1)),
        1: own((1, 0), (1, 1)),
        2: own((2, 0)),
        3: own(),
    }
    gold = {seat: lords(board(), players, seat) for seat in players}
    # sector 0: 2, 2, 1, 0 -> 12, 12, 6, 0; the other sectors are empty: 12 each.
    assert gold == {0: 48, 1: 48, 2: 42, 3: 36}


# ---- maxima ----------------------------------------------------------------------------------
def test_fishermen_maximum_is_40():
    b = board({**{(1, c): "W" for c in range(20)}})
    assert fishermen(b, {0: own(*row(0), *row(2))}, 0) == 40


def test_miners_and_workers_reach_one_per_settlement():
    b = board({**{(1, c): "M" for c in range(20)}, **{(3, c): "S" for c in range(20)}})
    assert miners(b, {0: own(*row(0), *row(2))}, 0) == 40
    assert workers(b, {0: own(*row(2), *row(4))}, 0) == 40


def test_merchants_maximum_is_48_with_twelve_locations():
    specials = {(0, c): "L" for c in range(0, 20, 2)} | {(2, 0): "S", (2, 2): "S"}
    b = board(specials)
    assert len(b.special) == 12
    assert merchants(b, {0: own(*row(1))}, 0) == 48


def test_discoverers_maximum_is_20():
    assert discoverers(board(), {0: own(*[(r, 0) for r in range(20)])}, 0) == 20


def test_knights_maximum_is_40():
    assert knights(board(), {0: own(*row(7), *[(r, 0) for r in range(20)])}, 0) == 40


def test_hermits_maximum_is_40():
    lone = [(r, c) for r in (0, 2, 4, 6) for c in range(0, 20, 2)]
    assert len(lone) == 40
    assert hermits(board(), {0: own(*lone)}, 0) == 40


def test_citizens_maximum_is_20():
    assert citizens(board(), {0: own(*row(0), *row(1))}, 0) == 20


def test_farmers_maximum_is_30():
    spread = [(r, c) for r in (0, 10) for c in range(20)]
    assert farmers(board(), {0: own(*spread)}, 0) == 30


def test_lords_maximum_is_48():
    players = {0: own((0, 0), (0, 10), (10, 0), (10, 10)), 1: own((1, 0))}
    assert lords(board(), players, 0) == 48


# ---- Nomads cards: paid during play, for builds only ---------------------------------------
def nomad_cards_position(settlements, cards, **kwargs):
    s = position(settlements, nomads=True, **kwargs)
    s.cards = list(cards)
    return s


def gold_events(events):
    return [(e.public["source"], e.public["gold"]) for e in events if e.type == "gold_earned"]


def test_families_pays_two_when_the_three_mandatory_settlements_stand_in_a_line():
    s = nomad_cards_position({}, ["families", "knights", "lords"])
    s, _ = play(s, build(5, 5))
    s, _ = play(s, build(5, 6))
    s, events = play(s, build(5, 7))
    assert gold_events(events) == [("families", 2)] and s.earned[0] == {"families": 2}
    s = nomad_cards_position({}, ["families", "knights", "lords"])
    for hex_ in [(5, 5), (5, 6), (4, 6)]:
        s, events = play(s, build(*hex_))
    assert gold_events(events) == []  # a bend is no straight line


def test_ambassadors_pays_one_per_settlement_built_next_to_another_players():
    s = nomad_cards_position({0: [(5, 4)], 1: [(4, 6), (6, 6)]}, ["ambassadors"])
    s, events = play(s, build(5, 5))  # next to two of theirs: 1 gold, not 2
    assert gold_events(events) == [("ambassadors", 1)]
    s, events = play(s, build(5, 3))
    assert gold_events(events) == []


def test_shepherds_pays_two_when_no_empty_hex_of_its_terrain_is_next_to_it():
    s = nomad_cards_position({0: [(5, 5)]}, ["shepherds"], letters={(5, 6): "D"}, fill="C")
    s.card = "desert"
    s, events = play(s, build(5, 6))
    assert gold_events(events) == [("shepherds", 2)]
    s = nomad_cards_position({0: [(5, 5)]}, ["shepherds"], letters={(5, 6): "D", (5, 7): "D"})
    s.card = "desert"
    s, events = play(s, build(5, 6))
    assert gold_events(events) == []


def test_a_move_to_a_location_does_not_pay_in_game_card_bonuses():
    s = nomad_cards_position(
        {0: [(5, 3)], 1: [(5, 6)]},
        ["ambassadors", "shepherds"],
        locations={(4, 5): "farm"},
        held={0: [("paddock", (0, 0))]},
    )
    s, events = play(s, use("paddock", (5, 5), (5, 3)))  # next to the farm and to seat 1
    assert types_of(events) == ["settlement_moved", "tile_taken"] and s.gold[0] == 0


def test_shepherds_never_pays_for_a_move_where_a_build_would_pay():
    # No empty desert touches (5, 6), so a build there pays (the far one keeps the card).
    s = nomad_cards_position(
        {0: [(5, 4)]},
        ["shepherds"],
        letters={(5, 6): "D", (15, 15): "D"},
        fill="C",
        held={0: [("paddock", (0, 0))]},
    )
    s.card = "desert"
    built, events = play(s, build(5, 6))
    assert gold_events(events) == [("shepherds", 2)] and built.gold[0] == 2
    moved, events = play(s, use("paddock", (5, 6), (5, 4)))  # the same hex, by a move
    assert types_of(events) == ["settlement_moved"]
    assert gold_events(events) == [] and moved.gold[0] == 0 and moved.earned[0] == {}


def test_workers_and_merchants_count_nomad_spaces():
    b = board({(5, 5): "N", (5, 9): "S"})
    assert workers(b, {0: own((5, 4), (5, 6), (9, 9))}, 0) == 2
    assert merchants(b, {0: own((5, 6), (5, 7), (5, 8))}, 0) == 8


def test_the_same_location_pays_again_when_another_settlement_is_built_there():
    s = nomad_cards_position(
        {0: [(5, 4)], 1: [(5, 6)]}, ["ambassadors"], held={0: [("paddock", (0, 0))]}
    )
    s, events = play(s, build(5, 5))
    assert gold_events(events) == [("ambassadors", 1)]
    s, _ = play(s, build(5, 3))
    s, _ = play(s, build(4, 4))
    s.active, s.placed, s.phase = 0, 0, "turn"
    s, _ = play(s, use("paddock", (5, 7), (5, 5)))  # the spot is free again
    s, events = play(s, build(5, 5))
    assert gold_events(events) == [("ambassadors", 1)] and s.earned[0]["ambassadors"] == 2


def test_nomads_cards_score_the_gold_they_paid_during_play():
    s = nomad_cards_position({0: [(5, 5)]}, ["ambassadors", "families", "fishermen"])
    s.earned[0] = {"ambassadors": 3, "families": 4}
    line = score_state(s)[0]
    assert (line["ambassadors"], line["families"], line["treasure"]) == (3, 4, 0)
    assert line["total"] == line["castles"] + 7 + line["fishermen"]


def types_of(events):
    return [e.type for e in events]
