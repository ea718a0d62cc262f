"""The 6 Crossroads task cards, each earned at most once, and what counts for them."""

from __future__ import annotations

import random

from games.rules.kingdom_builder.board import NEIGHBOURS, STEPS, board_from_grid
from games.rules.kingdom_builder.scoring import score_board, score_state
from games.rules.kingdom_builder.tasks import (
    TASKS,
    advance,
    compass_points,
    fortress,
    home_country,
    place_of_refuge,
    road,
)
from tests.rules.kingdom_builder.helpers import (
    RULESET,
    grid,
    h,
    new_game,
    position,
    wagon,
    warrior,
)


def board(letters=None, fill="G"):
    return board_from_grid(grid(letters, fill))


def ring(r: int, c: int) -> set[int]:
    return set(NEIGHBOURS[h(r, c)])


def line(r: int, c: int, direction: int, length: int) -> set[int]:
    hexes, here = {h(r, c)}, h(r, c)
    for _ in range(length - 1):
        here = STEPS[here][direction]
        hexes.add(here)
    return hexes


def test_the_six_tasks_and_their_gold():
    assert {k: gold for k, (gold, _) in TASKS.items()} == {
        "home_country": 5,
        "fortress": 6,
        "place_of_refuge": 8,
        "advance": 9,
        "road": 7,
        "compass_points": 10,
    }


def test_home_country_is_a_whole_terrain_area_filled_only_by_your_settlements():
    b = board({(5, 5): "T", (5, 6): "T", (4, 5): "T"})
    assert home_country(b, {h(5, 5), h(5, 6), h(4, 5), h(9, 9)})
    assert not home_country(b, {h(5, 5), h(5, 6)})  # one forest hex is not yours


def test_fortress_is_a_settlement_ringed_by_six_of_yours():
    assert fortress(board(), ring(5, 5) | {h(5, 5)})
    assert not fortress(board(), ring(5, 5))  # the middle is not yours
    assert not fortress(board(), (ring(5, 5) - {h(5, 6)}) | {h(5, 5)})


def test_place_of_refuge_is_a_location_castle_or_nomad_space_ringed_by_yours():
    for letter in "LSN":
        b = board({(5, 5): letter})
        assert place_of_refuge(b, ring(5, 5))
        assert not place_of_refuge(b, ring(5, 5) - {h(4, 5)})
    edge = board({(0, 5): "S"})
    assert place_of_refuge(edge, ring(0, 5))  # every neighbour on the board


def test_advance_is_seven_settlements_on_one_edge():
    assert advance(board(), {h(0, c) for c in range(7)})
    assert advance(board(), {h(r, 19) for r in range(5, 12)})
    assert not advance(board(), {h(0, c) for c in range(6)} | {h(19, 0)})


def test_road_is_seven_in_a_diagonal_line_never_a_horizontal_one():
    assert road(board(), line(2, 2, 5, 7))
    assert road(board(), line(10, 3, 1, 7))
    assert not road(board(), line(2, 2, 0, 7))
    assert not road(board(), line(2, 2, 5, 6))


def test_compass_points_needs_every_edge_and_a_corner_counts_for_both():
    assert compass_points(board(), {h(0, 0), h(19, 19)})
    assert compass_points(board(), {h(0, 5), h(19, 5), h(7, 0), h(7, 19)})
    assert not compass_points(board(), {h(0, 5), h(19, 5), h(7, 0)})


def test_a_task_is_earned_at_most_once_per_player():
    own = ring(5, 5) | {h(5, 5)} | ring(12, 12) | {h(12, 12)}
    scores = score_board(board(), {0: own, 1: set()}, [], tasks=["fortress"])
    assert scores[0]["fortress"] == 6 and scores[1]["fortress"] == 0


def test_the_tasks_in_play_are_one_per_crossroads_section():
    for seed in range(6):
        s = new_game(seed=seed, board="random", crossroads=True)
        laid = sum(1 for name, _ in s.layout if "_and_" in name)
        assert len(s.tasks) == laid and len(set(s.tasks)) == laid
        assert set(s.tasks) <= set(TASKS)
    s = new_game(
        board="chosen",
        sections=["city_hall_and_outpost", "monastery_and_wagon", "barn", "oasis"],
        crossroads=True,
        seed=3,
    )
    assert len(s.tasks) == 2 and RULESET.view(s, None)["board"]["tasks"][0]["gold"] > 0


def test_warriors_wagons_and_ships_leave_the_board_before_scoring():
    s = position({0: [(0, 2), (0, 3), (0, 4), (0, 5), (0, 6), (0, 7)]}, crossroads=True)
    s.tasks = ["advance"]
    s = warrior(wagon(s, 0, (0, 8)), 0, (0, 12))
    assert score_state(s)[0]["advance"] == 0


def test_the_later_ruling_counts_warriors_wagons_and_ships_as_settlements():
    s = position(
        {0: [(0, 2), (0, 3), (0, 4), (0, 5), (0, 6)]},
        crossroads=True,
        crossroads_pieces_score=True,
    )
    s.tasks = ["advance"]
    s = warrior(wagon(s, 0, (0, 8)), 0, (0, 12))
    assert score_state(s)[0]["advance"] == 9


def test_tasks_are_in_the_final_breakdown():
    rng = random.Random(4)
    s = RULESET.fold(
        RULESET.setup(
            {
                "board": "chosen",
                "sections": ["lighthouse_and_foresters_lodge", "tower", "farm", "oasis"],
                "crossroads": True,
            },
            2,
            rng,
        )
    )
    while not s.finished:
        command = rng.choice(RULESET.legal_commands(s, s.active))
        for event in RULESET.decide(s, s.active, command, rng):
            s = RULESET.evolve(s, event)
    (task,) = s.tasks
    assert all(task in line for line in RULESET.outcome(s).breakdown.values())
