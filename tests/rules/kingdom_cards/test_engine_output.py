"""What leaves the engine: views, the deal's secrets, the move log, determinized copies,
snapshots, and no floats anywhere."""

import json
import random

from games.rules.kingdom_cards import RULESET
from games.rules.kingdom_cards.evolve import EVENT_TYPES
from games.rules.kingdom_cards.playout import random_playout
from tests.rules.kingdom_cards.positions import (
    LAY_TREASURE,
    REDS,
    play,
    table,
)


# ---- what leaves the engine -----------------------------------------------------------
def test_a_seat_sees_its_own_hand_and_only_the_size_of_the_others():
    state = table(hands={0: ["R1a"], 1: ["Y2a", "B3a"], 2: ["T1"]})
    view = RULESET.view(state, 1)
    assert view["hand"] == ["Y2a", "B3a"]
    assert view["hand_sizes"] == [1, 2, 1]
    text = json.dumps(view)
    assert "R1a" not in text and "T1" not in text
    assert not any(card in text for card in state.source)
    assert view["source_size"] == len(state.source)


def test_a_spectator_sees_no_hand_but_the_public_table():
    state = table(hands={0: ["R1a"], 1: ["R7a"]}, groups={2: [REDS[3:6]]})
    play(state, (0, {"type": "challenge", "seat": 1}), (1, {"type": "bid", "card": "R7a"}))
    view = RULESET.view(state, None)
    assert view["hand"] is None and view["seat"] is None
    assert view["centre"] == "B5c"
    assert view["kingdoms"][2] == {
        "seat": 2,
        "groups": [None, REDS[3:6], None],
        "treasures": [],
        "flag": "RRR",
        "bonus_halves": 2,
        "complete": False,
    }
    assert view["battle"]["defender_bids"] == ["R7a"]
    assert view["battle"]["defender_total_halves"] == 14
    assert set(view) >= {"to_act", "phase", "finished", "outcome"}
    assert "R1a" not in json.dumps(view)


def test_the_deal_reveals_each_hand_only_to_its_owner():
    events = RULESET.setup({}, 3, random.Random(5))
    dealt = events[0]
    for seat in range(3):
        seen = dealt.seen_by(seat)
        assert seen["hand"] == dealt.private[seat]["hand"]
        assert "source" not in seen
    assert "hand" not in dealt.seen_by(None)


def test_the_move_log_describes_every_event_in_words():
    names = {0: "Ana", 1: "Bo", 2: "Cy"}
    state = table(hands={0: ["Y2a"], 1: ["R7a"], 2: ["T3"]})
    events = play(
        state,
        (2, LAY_TREASURE),
        (0, {"type": "challenge", "seat": 1}),
        (1, {"type": "bid", "card": "R7a"}),
        (0, {"type": "bid", "card": "Y2a"}),
    )
    lines = [RULESET.describe_event(e.type, e.seen_by(0), names) for e in events]
    assert lines[:4] == [
        "Cy laid a Treasure in their kingdom.",
        "Ana challenged Bo.",
        "Bo bid red 7 (sage): attack 7.",
        "Ana counterattacked with yellow 2 (artisan): attack 2.",
    ]
    assert lines[4] == "Bo won the battle (higher attack) and takes blue 5 (knight)."
    raised = {"seat": 1, "card": "R5a", "role": "raise", "total_halves": 25}
    assert (
        RULESET.describe_event("card_bid", raised, names)
        == "Bo raised with red 5 (knight): attack 12½."
    )
    second = {**raised, "seat": 0, "role": "second_card", "first_card_counts": False}
    assert "no longer counts" in RULESET.describe_event("card_bid", second, names)
    for kind in EVENT_TYPES:
        assert RULESET.describe_event(kind, {"seat": 0, **_sample(kind)}, names)


def test_completing_a_kingdom_ends_the_game_and_leaves_the_win_to_the_final_result():
    # A seat played on by a bot after its player resigned may complete a kingdom and still
    # rank last: the service's result names the winner, so this line does not.
    names = {0: "Ana", 1: "Bo"}
    line = RULESET.describe_event("kingdom_completed", {"seats": [0, 1]}, names)
    assert line == "Ana and Bo completed a kingdom, which ends the game."


def _sample(kind):
    return {
        "players": 3,
        "card": "R1a",
        "cards": ["R1a", "R2a", "R3a"],
        "tier": 1,
        "defender": 1,
        "role": "raise",
        "total_halves": 5,
        "winner": 1,
        "reason": "gave_up",
        "challenger": 0,
        "turn": 2,
        "seats": [0],
    }


def test_determinize_redeals_only_what_the_seat_cannot_see():
    state = table(hands={0: ["R1a", "T1"], 1: ["Y2a", "B3a", "Y9a"], 2: ["B9b"]})
    copy = RULESET.determinize(state, 0, random.Random(3))
    assert copy.hands[0] == state.hands[0]
    assert [len(h) for h in copy.hands] == [len(h) for h in state.hands]
    assert len(copy.source) == len(state.source)
    hidden = sorted(state.source + state.hands[1] + state.hands[2])
    assert sorted(copy.source + copy.hands[1] + copy.hands[2]) == hidden
    assert copy.hands[1] != state.hands[1] or copy.source != state.source
    assert state.hands[1] == ["Y2a", "B3a", "Y9a"]  # the original is untouched


def test_snapshots_round_trip_through_json():
    state = table(hands={0: ["Y2a"], 1: ["R7a"], 2: ["T3"]}, groups={2: [REDS[:3]]})
    play(state, (0, {"type": "challenge", "seat": 1}), (1, {"type": "bid", "card": "R7a"}))
    loaded = RULESET.load(json.loads(json.dumps(RULESET.dump(state))))
    for seat in (None, 0, 1, 2):
        assert RULESET.view(loaded, seat) == RULESET.view(state, seat)
    for seat in (0, 1, 2):
        assert RULESET.legal_commands(loaded, seat) == RULESET.legal_commands(state, seat)
    assert RULESET.dump(RULESET.copy_state(state)) == RULESET.dump(state)


def _floats(value):
    if isinstance(value, float):
        return [value]
    if isinstance(value, dict):
        return [f for v in value.values() for f in _floats(v)]
    if isinstance(value, list | tuple):
        return [f for v in value for f in _floats(v)]
    return []


def test_no_float_appears_in_state_views_or_events():
    rng = random.Random(11)
    events = RULESET.setup({}, 4, rng)
    state = RULESET.fold(events)
    while not state.finished:
        seat = rng.choice(sorted(RULESET.to_act(state)))
        events += RULESET.apply(state, seat, rng.choice(RULESET.legal_commands(state, seat)), rng)
        assert not _floats(RULESET.view(state, seat))
    assert not _floats(RULESET.dump(state))
    assert not _floats([[e.public, list(e.private.values())] for e in events])
    assert not _floats(RULESET.outcome(state).as_json())


def test_a_random_playout_plays_a_determinized_copy_to_the_end():
    rng = random.Random(4)
    state = RULESET.fold(RULESET.setup({}, 4, rng))
    before = RULESET.dump(state)
    copy = random_playout(RULESET.determinize(state, 0, rng), rng)
    assert copy.finished and RULESET.outcome(copy).winners
    assert RULESET.dump(state) == before
