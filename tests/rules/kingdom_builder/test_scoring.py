"""End-of-game scoring: castles, the position scorer, the engine's outcome."""

from __future__ import annotations

import random

import pytest

from games.rules.kingdom_builder.board import board_from_grid, coords
from games.rules.kingdom_builder.scoring import castles, score_board, score_position
from tests.rules.kingdom_builder.helpers import RULESET, grid, h


def test_castle_pays_three_per_castle_hex_next_to_your_settlements():
    b = board_from_grid(grid({(5, 5): "S", (10, 10): "S", (15, 15): "S"}))
    assert castles(b, {h(5, 4), h(5, 6), h(10, 11)}) == 6  # two next to one castle: 3 once
    assert castles(b, set()) == 0


def test_score_board_lists_castles_each_card_and_the_total():
    b = board_from_grid(grid({(1, c): "W" for c in range(20)} | {(5, 5): "S"}))
    players = {0: {h(0, 0), h(0, 1), h(5, 4)}, 1: {h(19, 19)}}
    scores = score_board(b, players, ["fishermen", "knights", "hermits"])
    assert scores[0] == {"castles": 3, "fishermen": 2, "knights": 4, "hermits": 2, "total": 11}
    assert scores[1] == {"castles": 0, "fishermen": 0, "knights": 2, "hermits": 1, "total": 3}


def test_score_position_reads_the_position_file_format():
    position = {
        "grid": grid({(1, c): "W" for c in range(20)} | {(5, 5): "S", (7, 7): "L"}, fill="."),
        "settlements": {"0": [[0, 0], [0, 1], [5, 4]], "1": [[7, 8], [7, 9]]},
        "cards": ["Fishermen", "merchants", "knights"],
    }
    result = score_position(position)
    assert result == {
        "players": {
            "0": {"castles": 3, "fishermen": 2, "merchants": 0, "knights": 4, "total": 9},
            "1": {"castles": 0, "fishermen": 0, "merchants": 0, "knights": 4, "total": 4},
        }
    }
    assert RULESET.score_position(position) == result


@pytest.mark.parametrize(
    "broken",
    [
        {"grid": ["G" * 20] * 19},
        {"grid": ["X" * 20] * 20},
        {"cards": ["dragons"]},
        {"cards": ["knights", "knights"]},
        {"settlements": {"0": [[20, 0]]}},
        {"settlements": {"0": [[0, 0]], "1": [[0, 0]]}},
        {"settlements": {"zero": [[0, 0]]}},
        {"settlements": {"0": [[5, 5]]}},  # a castle hex
    ],
)
def test_score_position_refuses_a_malformed_position(broken):
    position = {
        "grid": grid({(5, 5): "S"}),
        "settlements": {"0": [[0, 0]]},
        "cards": ["knights"],
    }
    with pytest.raises(ValueError):
        score_position({**position, **broken})


def test_the_engine_outcome_and_the_position_scorer_agree():
    rng = random.Random(11)
    s = RULESET.fold(RULESET.setup({}, 3, rng))
    while not s.finished:
        seat = s.active
        command = rng.choice(RULESET.legal_commands(s, seat))
        for event in RULESET.decide(s, seat, command, rng):
            s = RULESET.evolve(s, event)
    outcome = RULESET.outcome(s)
    position = {
        "grid": s.board.rows(),
        "settlements": {str(p): [coords(i) for i in s.settlements[p]] for p in range(3)},
        "cards": s.cards,
    }
    scored = score_position(position)["players"]
    for seat in range(3):
        line = dict(scored[str(seat)])
        assert line.pop("total") == outcome.scores[seat]
        assert line == outcome.breakdown[seat]


def test_ties_share_the_rank():
    s = RULESET.fold(RULESET.setup({"board": "first_game"}, 2, random.Random(1)))
    from games.rules.kingdom_builder.emitter import Emitter
    from games.rules.kingdom_builder.turn import finish

    em = Emitter(s)
    finish(em)  # nobody has built: every total is 0
    outcome = RULESET.outcome(em.state)
    assert outcome.ranking == [[0, 1]] and outcome.winners == [0, 1]


# ---- the expansions in position files --------------------------------------------------------
def test_score_position_reads_the_expansion_keys():
    position = {
        "grid": grid({(5, 5): "N", (0, 0): "M", (9, 9): "S"}),
        "settlements": {"0": [[0, 0], [4, 5], [4, 6]], "1": [[12, 12]]},
        "cards": ["workers", "families", "knights"],
        "gold": {"0": {"families": 4, "treasure": 3}},
        "tasks": ["fortress", "advance"],
        "city_halls": {"1": [15, 15]},
        "walls": [[1, 1]],
        "pieces": {"1": {"warriors": [[0, 5]], "wagon": [0, 6], "ship": None}},
    }
    players = score_position(position)["players"]
    assert players["0"] == {
        "castles": 0,
        "workers": 2,  # (4, 5) and (4, 6) touch the nomad space
        "families": 4,
        "knights": 4,
        "treasure": 3,
        "fortress": 0,
        "advance": 0,
        "total": 13,
    }
    assert players["1"]["fortress"] == 6  # the city hall is ringed by itself
    assert players["1"]["knights"] == 6  # 3 city-hall hexes in row 15
    counted = score_position({**position, "pieces_score": True})["players"]["1"]
    assert counted["knights"] == 6 and counted["total"] == players["1"]["total"]


@pytest.mark.parametrize(
    "broken",
    [
        {"tasks": ["dragons"]},
        {"gold": {"0": {"dragons": 1}}},
        {"gold": {"0": {"families": -1}}},
        {"city_halls": {"0": [0, 5]}},  # its ring leaves the board
        {"city_halls": {"0": [5, 5]}, "settlements": {"0": [[5, 6]]}},  # over a settlement
        {"walls": [[0, 0]]},
        {"pieces": {"0": {"cannon": [3, 3]}}},
        {"pieces_score": "yes"},
    ],
)
def test_score_position_refuses_malformed_expansion_keys(broken):
    position = {"grid": grid(), "settlements": {"0": [[0, 0]]}, "cards": ["knights"]}
    with pytest.raises(ValueError):
        score_position({**position, **broken})


def test_score_position_puts_each_piece_only_where_it_may_stand():
    position = {
        "grid": grid({(3, 3): "W", (4, 4): "M"}),
        "settlements": {"0": [[0, 0]]},
        "cards": ["knights"],
        "pieces_score": True,
    }
    fine = {"warriors": [[5, 5]], "wagon": [4, 4], "ship": [3, 3]}  # land, mountain, water
    assert score_position({**position, "pieces": {"0": fine}})["players"]["0"]["knights"] == 2
    for wrong in (
        {"ship": [5, 5]},  # a ship on land
        {"wagon": [3, 3]},  # a wagon on water
        {"warriors": [[4, 4]]},  # a warrior on a mountain
        {"warriors": [[3, 3]]},  # or on water
    ):
        with pytest.raises(ValueError, match="cannot hold a"):
            score_position({**position, "pieces": {"0": wrong}})


def test_the_engine_outcome_and_the_position_scorer_agree_with_the_expansions():
    for seed in (3, 8):
        rng = random.Random(seed)
        options = {"nomads": True, "crossroads": True, "crossroads_pieces_score": seed == 8}
        s = RULESET.fold(RULESET.setup(options, 4, rng))
        while not s.finished:
            command = rng.choice(RULESET.legal_commands(s, s.active))
            for event in RULESET.decide(s, s.active, command, rng):
                s = RULESET.evolve(s, event)
        position = {
            "grid": s.board.rows(),
            "settlements": {str(p): [coords(i) for i in s.settlements[p]] for p in range(4)},
            "cards": s.cards,
            "tasks": s.tasks,
            "gold": {str(p): {"treasure": 0, **s.earned[p]} for p in range(4)},
            "city_halls": {str(p): coords(s.city_hall[p][0]) for p in range(4) if s.city_hall[p]},
            "walls": [coords(i) for i in s.walls],
            "pieces": {
                str(p): {
                    "warriors": [coords(i) for i in s.warriors[p]],
                    "wagon": coords(s.wagon[p]) if s.wagon[p] >= 0 else None,
                    "ship": coords(s.ship[p]) if s.ship[p] >= 0 else None,
                }
                for p in range(4)
            },
            "pieces_score": options["crossroads_pieces_score"],
        }
        scored = score_position(position)["players"]
        outcome = RULESET.outcome(s)
        for seat in range(4):
            line = dict(scored[str(seat)])
            assert line.pop("total") == outcome.scores[seat]
            assert line == outcome.breakdown[seat]
