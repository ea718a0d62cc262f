"""What each viewer sees, and the move log in words."""

from __future__ import annotations

import json
import random

from tests.rules.kingdom_builder.helpers import RULESET, new_game

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
    assert line == "Ben builds on flower field at [3, 4] with Farm."
