"""The table's own lines of the move log (games.selectors.describe)."""

from __future__ import annotations

import pytest

from games import table as tables
from games.models import Game
from games.selectors import describe

NAMES = {0: "Ana", 1: "Bo", 2: "Cy"}
GAME = Game(ruleset="kingdoms")
# The result line looks up who left the table (nobody here).
pytestmark = pytest.mark.django_db


def result(outcome: dict, **extra) -> str:
    return describe(GAME, tables.RESULT_DECLARED, {"outcome": outcome, **extra}, NAMES)


def test_the_result_line_names_the_winner_and_the_order_once():
    outcome = {"winners": [1], "scores": {"0": 20, "1": 31, "2": 5}, "ranking": [[1], [0], [2]]}
    assert result(outcome) == "Game over: Bo wins with 31; then Ana 20, Cy 5."


def test_the_result_line_of_a_shared_victory():
    outcome = {"winners": [0, 2], "scores": {"0": 9, "1": 4, "2": 9}, "ranking": [[0, 2], [1]]}
    assert result(outcome) == "Game over: Ana and Cy share the victory with 9; then Bo 4."


def test_the_result_line_after_the_others_left_says_why():
    outcome = {"winners": [2], "scores": {"0": 0, "1": 0, "2": 1}, "ranking": [[2], [1], [0]]}
    line = result(outcome, by="resignation")
    assert line == "Game over: the others have left the table (resignation), so Cy wins."


def test_pressing_the_clocks_is_no_line_of_the_move_log():
    assert describe(GAME, tables.CLOCK_PRESSED, {"at": 1, "seat": 0}, NAMES) == ""
