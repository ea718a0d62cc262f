"""`manage.py score` reads a position file and prints the engine's own scoring."""

from __future__ import annotations

import json

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

KINGDOMS_POSITION = {
    "grid": [
        ["castle:0:2", "+3", "", "mountain", "castle:1:1", "-2"],
        ["", "dragon", "", "", "", ""],
        ["gold_mine", "", "castle:0:4", "wizard", "", ""],
        ["", "", "", "", "", ""],
        ["", "", "", "", "", "+6"],
    ]
}


def score(tmp_path, capsys, ruleset: str, position) -> dict:
    path = tmp_path / "position.json"
    path.write_text(json.dumps(position))
    call_command("score", ruleset, str(path))
    return json.loads(capsys.readouterr().out)


def test_kingdoms_position_scores_rows_then_columns(tmp_path, capsys):
    result = score(tmp_path, capsys, "kingdoms", KINGDOMS_POSITION)
    # Row 1: seat 0's rank-2 castle left of the Mountain with +3 -> 6; seat 1's rank-1
    # castle right of it with -2 -> -2. Columns hold no tile next to a castle: 0.
    assert result["players"]["0"] == {"rows": [6, 0, 0, 0, 0], "columns": [0] * 6, "total": 6}
    assert result["players"]["1"]["total"] == -2


def test_kingdom_builder_position_scores_castles_and_cards(tmp_path, capsys):
    grid = ["G" * 20 for _ in range(20)]
    grid[0] = "S" + "G" * 19
    position = {
        "grid": grid,
        "settlements": {"0": [[0, 1], [0, 2], [0, 3]], "1": [[5, 5]]},
        "cards": ["knights", "hermits", "discoverers"],
    }
    result = score(tmp_path, capsys, "kingdom-builder", position)
    zero = result["players"]["0"]
    assert zero["castles"] == 3  # the castle at (0,0) touches (0,1)
    assert zero["knights"] == 6  # 3 settlements in its fullest row, 2 gold each
    assert zero["hermits"] == 1 and zero["discoverers"] == 1
    assert zero["total"] == 3 + 6 + 1 + 1
    assert result["players"]["1"]["total"] == 2 + 1 + 1


def expansion_position(pieces_score: bool) -> dict:
    grid = ["G" * 20 for _ in range(20)]
    grid[0] = "WW" + "G" * 18
    grid[2] = "GGS" + "G" * 17  # a castle at (2, 2)
    return {
        "grid": grid,
        "settlements": {"0": [[1, 2]], "1": [[15, 14]]},
        "cards": ["fishermen", "knights", "shepherds"],
        "tasks": ["fortress", "advance"],
        "city_halls": {"0": [5, 5]},  # (5, 5) and its ring: (5, 4) (5, 6) (4, 5) (4, 6)...
        "walls": [[10, 10]],
        "pieces": {"1": {"warriors": [[15, 15]], "wagon": [1, 0], "ship": [0, 1]}},
        "pieces_score": pieces_score,
        "gold": {"0": {"shepherds": 4, "treasure": 3}},
    }


def test_kingdom_builder_expansion_position_scores_gold_tasks_city_halls_and_pieces(
    tmp_path, capsys
):
    result = score(tmp_path, capsys, "kingdom-builder", expansion_position(True))
    # Seat 0: (1, 2) touches the castle (3); no settlement touches water (0); the city
    # hall puts 3 in row 5, the fullest row (6); Shepherds and Treasure as earned (4 + 3);
    # the city hall's centre is ringed by its own hexes: Fortress (6); no edge: Advance 0.
    assert result["players"]["0"] == {
        "castles": 3,
        "fishermen": 0,
        "knights": 6,
        "shepherds": 4,
        "treasure": 3,
        "fortress": 6,
        "advance": 0,
        "total": 22,
    }
    # Seat 1 with its pieces counted: the wagon (1, 0) touches the water (Fishermen 1; the
    # ship on water earns nothing); row 15 holds the settlement and the warrior (Knights 4).
    assert result["players"]["1"] == {
        "castles": 0,
        "fishermen": 1,
        "knights": 4,
        "shepherds": 0,
        "treasure": 0,
        "fortress": 0,
        "advance": 0,
        "total": 5,
    }
    # By default the pieces leave the board first: one settlement, Knights 2.
    result = score(tmp_path, capsys, "kingdom-builder", expansion_position(False))
    assert result["players"]["1"]["total"] == 2
    assert result["players"]["0"]["total"] == 22


@pytest.mark.parametrize("ruleset", ["kingdoms", "kingdom-builder"])
def test_malformed_position_is_a_clear_error(tmp_path, ruleset):
    path = tmp_path / "bad.json"
    path.write_text(json.dumps({"grid": "nope"}))
    with pytest.raises(CommandError):
        call_command("score", ruleset, str(path))


def test_unknown_ruleset_is_refused(tmp_path):
    with pytest.raises(CommandError, match="unknown ruleset"):
        call_command("score", "chess", str(tmp_path / "x.json"))
