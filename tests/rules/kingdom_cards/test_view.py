"""The Kingdom Cards move log in words."""

from __future__ import annotations

from games.rules import get_ruleset

RULESET = get_ruleset("kingdom-cards")
NAMES = {0: "Ana", 1: "Bo"}


def test_an_army_takes_the_article_an():
    data = {"seat": 0, "tier": 2, "cards": ["R4b", "R5a", "R6a"]}
    assert RULESET.describe_event("group_laid", data, NAMES).startswith("Ana laid an army: ")
    people = {"seat": 1, "tier": 1, "cards": ["R1a", "Y1a", "B1a"]}
    assert RULESET.describe_event("group_laid", people, NAMES).startswith("Bo laid a people: ")


def test_the_end_of_play_leaves_the_announcement_to_the_table():
    line = RULESET.describe_event("game_ended", {"reason": "source_exhausted"}, NAMES)
    assert line == "The last round is over: the kingdoms are counted."
    assert "over" not in RULESET.describe_event(
        "game_ended", {"reason": "kingdom_completed"}, NAMES
    )
