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
