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


@pytest.mark.parametrize("ruleset", ["kingdoms", "kingdom-builder"])
def test_malformed_position_is_a_clear_error(tmp_path, ruleset):
    path = tmp_path / "bad.json"
    path.write_text(json.dumps({"grid": "nope"}))
    with pytest.raises(CommandError):
        call_command("score", ruleset, str(path))


def test_unknown_ruleset_is_refused(tmp_path):
    with pytest.raises(CommandError, match="unknown ruleset"):
        call_command("score", "chess", str(tmp_path / "x.json"))
