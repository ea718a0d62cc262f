"""What each viewer sees, hidden information, determinize, and the move log."""

from __future__ import annotations

import json
import random
from collections import Counter

from games.rules.kingdoms.events import EVENT_TYPES
from tests.rules.kingdoms.helpers import (
    R,
    act,
    new_game,
    play_random_game,
    put,
    string_values,
)

VIEW_KEYS = {
    "game",
    "viewer",
    "players",
    "options",
    "phase",
    "finished",
    "to_act",
    "turn",
    "outcome",
    "epoch",
    "epochs",
    "final_epoch",
    "start_player",
    "grid",
    "gold",
    "castles",
    "starting_tiles",
    "supply",
    "drawn_tile",
    "lines",
    "previous_epoch_lines",
    "epoch_gains",
    "line_values",
}


def test_view_has_the_contract_keys_and_is_json_ready():
    state, _ = new_game(3, seed=1)
    for seat in (0, 1, 2, None):
        view = R.view(state, seat)
        assert set(view) == VIEW_KEYS
        assert json.loads(json.dumps(view)) == view
        assert view["to_act"] == [state.turn] and view["phase"] == "play"
        assert view["finished"] is False and view["outcome"] is None


def test_view_grid_cells_name_the_piece():
    state, _ = new_game(2, seed=1)
    seat = state.turn
    state, _ = act(state, seat, {"type": "place_castle", "rank": 2, "space": [1, 2]})
    state, _ = act(state, state.turn, {"type": "draw_tile"})
    tile = state.drawn
    state, _ = act(state, state.turn, {"type": "place_tile", "space": [3, 4]})
    grid = R.view(state, None)["grid"]
    assert len(grid) == 5 and all(len(row) == 6 for row in grid)
    assert grid[1][2] == {"piece": "castle", "seat": seat, "rank": 2, "code": f"castle:{seat}:2"}
    assert grid[3][4]["piece"] == "tile" and grid[3][4]["tile"] == tile
    assert grid[0][0] is None


def test_another_seats_starting_tile_is_never_in_a_view():
    state, _ = new_game(4, seed=5)
    for seat in range(4):
        view = R.view(state, seat)
        seen = string_values(view)
        assert view["starting_tiles"][seat] == {"held": True, "tile": state.starting[seat]}
        for other in range(4):
            if other != seat:
                assert view["starting_tiles"][other] == {"held": True, "tile": None}
                assert state.starting[other] not in seen


def test_spectator_sees_no_starting_tile_and_no_supply_order():
    state, _ = new_game(3, seed=5)
    seen = string_values(R.view(state, None))
    assert not seen & set(state.starting)
    assert not seen & set(state.supply)
    assert R.view(state, None)["supply"] == {"count": 20, "face_up": None}


def test_supply_order_is_in_no_view():
    state, _ = new_game(2, seed=8)
    for seat in (0, 1, None):
        assert not string_values(R.view(state, seat)) & set(state.supply)


def test_redacted_setup_events_hide_other_starting_tiles_and_the_supply():
    state, events = new_game(4, seed=9)
    for seat in (0, 1, 2, 3, None):
        for event in events:
            seen = string_values(event.seen_by(seat))
            hidden = set(state.supply) | {t for s, t in enumerate(state.starting) if s != seat}
            assert not seen & hidden


def test_placed_starting_tile_becomes_public():
    state, _ = new_game(2, seed=1)
    seat = state.turn
    tile = state.starting[seat]
    after, events = act(state, seat, {"type": "place_starting_tile", "space": [0, 0]})
    assert events[0].seen_by(None)["tile"] == tile
    assert R.view(after, 1 - seat)["starting_tiles"][seat] == {"held": False, "tile": None}
    assert R.view(after, None)["grid"][0][0]["tile"] == tile


def test_determinize_keeps_what_the_seat_knows_and_redeals_the_rest():
    state, _ = new_game(4, seed=3)
    state, _ = act(state, state.turn, {"type": "draw_tile"})
    seat = (state.turn + 1) % 4
    rng = random.Random(1)
    samples = [R.determinize(state, seat, rng) for _ in range(20)]
    for sample in samples:
        assert sample.starting[seat] == state.starting[seat]
        assert sample.grid == state.grid and sample.drawn == state.drawn
        others = [t for s, t in enumerate(sample.starting) if s != seat]
        original = [t for s, t in enumerate(state.starting) if s != seat]
        assert Counter(sample.supply + others) == Counter(state.supply + original)
        assert R.view(sample, seat) == R.view(state, seat)
    assert len({tuple(s.supply) for s in samples}) > 1
    assert R.dump(state) == R.dump(R.load(R.dump(state)))  # the original is untouched


def test_determinize_spectator_knows_no_starting_tile():
    state, _ = new_game(2, seed=3)
    samples = {tuple(R.determinize(state, None, random.Random(s)).starting) for s in range(20)}
    assert len(samples) > 1


def test_determinize_no_luck_has_nothing_hidden():
    state, _ = new_game(2, no_luck=True)
    assert R.dump(R.determinize(state, 0, random.Random(0))) == R.dump(state)


def test_every_event_type_is_described_in_words():
    names = {0: "Ana", 1: "Bo", 2: "Cy"}
    seen = set()
    for seed in range(3):
        _, events = play_random_game(seed, 3, {"score_as_you_go": seed == 0})
        for event in events:
            for seat in (0, None):
                text = R.describe_event(event.type, event.seen_by(seat), names)
                assert isinstance(text, str) and text.endswith(".")
            seen.add(event.type)
    assert seen >= set(EVENT_TYPES) - {"turn_passed"}
    assert (
        R.describe_event("turn_passed", {"seat": 1}, names) == "Bo passed: nothing left to place."
    )


def test_move_log_mentions_own_starting_tile_only_to_its_holder():
    _, events = new_game(2, seed=1)
    started = events[1]
    own = R.describe_event("epoch_started", started.seen_by(0), {0: "Ana", 1: "Bo"})
    spectator = R.describe_event("epoch_started", started.seen_by(None), {0: "Ana", 1: "Bo"})
    assert "starting tile" in own and "starting tile" not in spectator


def test_finished_view_carries_the_outcome():
    state, _ = play_random_game(2, 2)
    view = R.view(state, 0)
    assert view["finished"] and view["phase"] == "finished" and view["to_act"] == []
    assert view["outcome"] == R.outcome(state).as_json()


def test_the_final_gold_line_gives_the_count_and_leaves_the_announcement_to_the_table():
    names = {0: "Ana", 1: "Bo"}
    data = {"ranking": [[1], [0]], "scores": [12, 30]}
    assert R.describe_event("game_finished", data, names) == "Final gold: Bo 30, Ana 12."


def test_the_view_gives_each_open_line_its_value_now():
    """Row 2 holds seat 0's rank-2 castle, a +3 and a +2: it would pay seat 0 +10 now.
    Each column holds the castle or a tile, never both, so it pays nobody yet."""
    state, _ = new_game(2, seed=0)
    put(state, {(1, 0): "castle:0:2", (1, 1): "+3a", (1, 2): "+2a"})
    values = {(v["line"], v["index"]): v["gains"] for v in R.view(state, None)["line_values"]}
    assert len(values) == 11
    assert values[("row", 1)] == [10, 0]
    assert values[("column", 0)] == [0, 0] and values[("column", 1)] == [0, 0]
    assert values[("row", 0)] == [0, 0]
