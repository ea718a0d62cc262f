"""What each viewer sees, and the move log in words."""

from __future__ import annotations

import json
import random

from tests.rules.kingdom_builder.helpers import (
    RULESET,
    new_game,
    play,
    position,
    wagon,
    walls,
    warrior,
)

KEYS = {
    "ruleset",
    "phase",
    "finished",
    "to_act",
    "outcome",
    "you",
    "options",
    "board",
    "cards",
    "start_player",
    "active",
    "round",
    "end_triggered",
    "players",
    "terrain",
    "turn",
    "hand",
}


def test_a_seat_sees_its_own_hand_and_only_the_size_of_the_others():
    s = new_game(players=3, terrain_draw="hand")
    for seat in range(3):
        view = RULESET.view(s, seat)
        assert set(view) == KEYS and view["you"] == seat
        assert view["hand"] == s.hands[seat]
        assert [p["hand_size"] for p in view["players"]] == [len(h) for h in s.hands]
        assert view["terrain"]["draw_pile"] == len(s.draw_pile)  # a count, never the order
    spectator = RULESET.view(s, None)
    assert spectator["hand"] is None and spectator["you"] is None
    text = json.dumps(spectator)
    assert '"hand": null' in text


def test_the_view_shows_the_board_the_turn_and_who_acts():
    s = new_game(players=2)
    view = RULESET.view(s, None)
    assert len(view["board"]["grid"]) == 20 and len(view["board"]["locations"]) == 8
    assert view["to_act"] == [s.active] and view["phase"] == "turn"
    assert view["turn"]["terrain"] == s.card and view["turn"]["mandatory"] == "not_started"
    assert view["finished"] is False and view["outcome"] is None
    assert {"castles", *s.cards, "total"} == set(view["players"][0]["score"])


def test_the_finished_view_carries_the_outcome():
    rng = random.Random(2)
    s = RULESET.fold(RULESET.setup({}, 2, rng))
    while not s.finished:
        command = rng.choice(RULESET.legal_commands(s, s.active))
        for event in RULESET.decide(s, s.active, command, rng):
            s = RULESET.evolve(s, event)
    view = RULESET.view(s, 0)
    assert view["finished"] and view["to_act"] == [] and view["turn"] is None
    assert view["outcome"] == RULESET.outcome(s).as_json()


def test_every_event_is_described_in_words():
    names = {0: "Ana", 1: "Ben", 2: "Cy"}
    seen: set[str] = set()
    for draw in ("standard", "draft", "choose"):
        rng = random.Random(8)
        events = RULESET.setup({"terrain_draw": draw}, 3, rng)
        s = RULESET.fold(events)
        while not s.finished:
            command = rng.choice(RULESET.legal_commands(s, s.active))
            new = RULESET.decide(s, s.active, command, rng)
            events += new
            for event in new:
                s = RULESET.evolve(s, event)
        for event in events:
            for seat in (None, 0):
                line = RULESET.describe_event(event.type, event.seen_by(seat), names)
                assert line and not line.startswith(event.type)
            seen.add(event.type)
    assert {"settlement_built", "tile_taken", "game_finished"} <= seen
    line = RULESET.describe_event(
        "settlement_built",
        {"seat": 1, "hex": [3, 4], "terrain": "flower_field", "tile": "farm"},
        names,
    )
    assert line == "Ben builds on flower field at E4 with Farm."


def test_the_log_names_hexes_as_the_board_labels_them():
    """Columns A-T, rows 1-20, as drawn around the board; never 0-based pairs."""
    names = {0: "Ana"}
    moved = {"seat": 0, "from": [0, 0], "to": [19, 19], "tile": "paddock"}
    line = RULESET.describe_event("settlement_moved", moved, names)
    assert line == "Ana moves a settlement from A1 to T20 with Paddock."


def test_the_final_scoring_line_gives_the_count_and_leaves_the_announcement_to_the_table():
    names = {0: "Ana", 1: "Ben"}
    line = RULESET.describe_event("game_finished", {"scores": {"0": 30, "1": 41}}, names)
    assert line == "Final scoring: Ben 41, Ana 30 gold."


# ---- the expansions ----------------------------------------------------------------------------
EXPANSION_EVENTS = {
    "nomad_tile_taken",
    "nomad_tile_used",
    "nomad_tile_expired",
    "gold_earned",
    "wall_placed",
    "settlement_removed",
    "action_finished",
    "city_hall_built",
    "piece_placed",
    "piece_moved",
    "piece_taken_back",
}


def test_the_view_shows_the_expansion_pieces():
    s = position(
        {0: [(5, 5)], 1: [(10, 10)]},
        nomad_spaces={(8, 8): "sword"},
        nomad_held={0: [("resettlement", (2, 2))]},
        nomads=True,
        crossroads=True,
    )
    s.tasks = ["road"]
    s = warrior(wagon(walls(s, (3, 3)), 1, (12, 12), "ship"), 1, (15, 15))
    s, _ = play(s, {"type": "use_nomad_tile", "tile": "resettlement"})
    view = RULESET.view(s, 1)
    assert set(view) == KEYS
    board = view["board"]
    assert board["nomad_spaces"] == [{"hex": [8, 8], "tile": "sword"}]
    assert board["walls"] == [[3, 3]] and board["walls_left"] == 24
    assert board["tasks"] == [{"task": "road", "gold": 7}]
    assert [15, 16] in board["guarded"] and len(board["guarded"]) == 6
    me, other = view["players"]
    assert me["nomad_tiles"] == [] and me["gold"] == {} and me["city_hall"] is None
    assert other["ship"] == [12, 12] and other["wagon"] is None
    assert other["warriors"] == [[15, 15]] and other["warriors_left"] == 1
    assert view["turn"]["action"] == {"kind": "resettlement", "tile": "resettlement", "left": 4}
    assert view["turn"]["outpost_armed"] is False
    assert {"road", "treasure"} <= set(me["score"])
    json.dumps(view)


def test_every_expansion_event_is_described_in_words():
    names = {0: "Ana", 1: "Ben", 2: "Cy"}
    seen: set[str] = set()
    for seed in range(6):
        rng = random.Random(seed)
        events = RULESET.setup({"nomads": True, "crossroads": True}, 3, rng)
        s = RULESET.fold(events)
        while not s.finished:
            command = rng.choice(RULESET.legal_commands(s, s.active))
            new = RULESET.decide(s, s.active, command, rng)
            events += new
            for event in new:
                s = RULESET.evolve(s, event)
        for event in events:
            for seat in (None, 0):
                line = RULESET.describe_event(event.type, event.seen_by(seat), names)
                assert line != event.type.replace("_", " ").capitalize() + "."
            seen.add(event.type)
    assert len(seen & EXPANSION_EVENTS) >= 7
    samples = {
        "settlement_removed": {"seat": 0, "victim": 2, "hex": [4, 4]},
        "city_hall_built": {"seat": 1, "hex": [5, 5], "hexes": [], "tile": "city_hall"},
        "piece_taken_back": {"seat": 1, "piece": "wagon", "hex": [2, 3], "tile": "wagon"},
        "nomad_tile_taken": {"seat": 0, "tile": "nomad_outpost", "space": [7, 7]},
        "gold_earned": {"seat": 2, "gold": 2, "source": "families", "hex": [1, 1]},
    }
    lines = {kind: RULESET.describe_event(kind, data, names) for kind, data in samples.items()}
    assert lines == {
        "settlement_removed": "Ana's Sword removes Cy's settlement at E5.",
        "city_hall_built": "Ben builds a city hall around F6.",
        "piece_taken_back": "Ben takes the wagon at D3 back.",
        "nomad_tile_taken": "Ana takes the Outpost nomad tile at H8.",
        "gold_earned": "Cy earns 2 gold (Families).",
    }


def test_the_set_up_line_names_board_sections_by_their_printed_tiles():
    data = {
        "layout": [["monastery_and_wagon", False], ["barracks_and_crossroads", True]],
        "cards": ["fishermen"],
        "tasks": [],
    }
    line = RULESET.describe_event("game_set_up", data, {})
    assert line.startswith("The board is laid: Monastery and Wagon, Barracks and Crossroads")
    assert "(rotated)" in line and "_" not in line
