import json
import random

from games.rules.base import Event
from games.rules.kingdom_cards import RULESET
from games.rules.kingdom_cards.evolve import EVENT_TYPES
from games.rules.kingdom_cards.playout import random_playout
from games.rules.kingdom_cards.state import KINGDOM_CHANGES_PER_TURN
from tests.rules.kingdom_cards.positions import (
    count_cards,
    first,
    play,
    refusal,
    table,
    types,
)

REDS = ["R1a", "R2a", "R3a", "R4a", "R5a", "R6a", "R7a", "R8a", "R9a"]
YELLOWS = ["Y1a", "Y2a", "Y3a", "Y4a", "Y5a", "Y6a", "Y7a", "Y8a", "Y9a"]
LAY_TREASURE = {"type": "lay_treasure", "card": "T3"}
RETURN_TREASURE = {"type": "return_treasure", "card": "T3"}


class StackedDeck(random.Random):
    """An RNG whose shuffle deals ``order`` first (the rest in deck order)."""

    def __init__(self, order):
        super().__init__(0)
        self.order = order

    def shuffle(self, cards):
        rest = [c for c in cards if c not in self.order]
        cards[:] = self.order + rest


# ---- who acts -------------------------------------------------------------------------
def test_the_challenger_and_every_seat_with_a_window_to_change_its_kingdom_may_act():
    state = table(hands={0: ["R1b"], 1: ["B2b"], 2: ["T3"]})
    assert RULESET.to_act(state) == {0, 1, 2}
    assert RULESET.view(state, None)["awaiting"] == [0]
    assert RULESET.legal_commands(state, 2) == [LAY_TREASURE, {"type": "keep_kingdom"}]


def test_who_may_act_never_depends_on_a_hidden_hand():
    # Seat 1 holds no group and no Treasure, seat 2 a Treasure: no one may tell them apart.
    state = table(hands={0: ["R1b"], 1: ["B2b"], 2: ["T3"]})
    assert RULESET.legal_commands(state, 1) == [
        {"type": "lay_card", "card": "B2b"},
        {"type": "keep_kingdom"},
    ]
    assert {1, 2} <= RULESET.to_act(state)
    assert types(play(state, (1, {"type": "keep_kingdom"}))) == ["kingdom_kept"]
    assert RULESET.to_act(state) == {0, 2}


def test_keeping_the_kingdom_ends_a_seats_changes_for_the_turn():
    state = table(hands={0: ["R1b"], 1: ["R7b"], 2: ["T3"]})
    events = play(state, (2, {"type": "keep_kingdom"}))
    assert types(events) == ["kingdom_kept"]
    assert RULESET.to_act(state) == {0, 1}
    assert refusal(state, 2, LAY_TREASURE) == "no_changes_left"
    play(state, (0, {"type": "challenge", "seat": 1}), (1, {"type": "bid", "card": "R7b"}))
    play(state, (0, {"type": "bid", "card": "R1b"}))
    assert 2 in RULESET.to_act(state)  # a new turn: changes are open again


def test_keeping_is_offered_whatever_the_hand_holds():
    for hand in (["Y1b"], [], ["T1"], ["R1a", "R2a", "R3a"]):
        state = table(hands={0: ["R1b"], 1: ["R7b"], 2: hand})
        assert {"type": "keep_kingdom"} in RULESET.legal_commands(state, 2)
        assert types(play(state, (2, {"type": "keep_kingdom"}))) == ["kingdom_kept"]


def test_kingdom_changes_are_capped_per_seat_and_turn():
    state = table(hands={0: ["R1b"], 1: ["R7b"], 2: ["T3"]})
    for i in range(KINGDOM_CHANGES_PER_TURN):
        play(state, (2, LAY_TREASURE if i % 2 == 0 else RETURN_TREASURE))
    assert state.changes_left[2] == 0
    assert refusal(state, 2, LAY_TREASURE) == "no_changes_left"
    assert RULESET.legal_commands(state, 2) == []
    assert RULESET.to_act(state) == {0, 1}
    play(state, (0, {"type": "challenge", "seat": 1}), (1, {"type": "bid", "card": "R7b"}))
    play(state, (0, {"type": "bid", "card": "R1b"}))
    assert state.changes_left == [KINGDOM_CHANGES_PER_TURN] * 3


# ---- the instant win ------------------------------------------------------------------
def test_laying_the_third_group_under_one_flag_wins_at_once():
    state = table(
        hands={1: ["R7a", "R8a", "R9a"]},
        groups={1: [REDS[:3], REDS[3:6]]},
        auto_complete=False,
    )
    events = play(state, (1, {"type": "lay_group", "cards": ["R7a", "R8a", "R9a"]}))
    assert types(events) == ["group_laid", "kingdom_completed", "game_ended"]
    assert first(events, "game_ended") == {"reason": "kingdom_completed", "completed": [1]}
    assert RULESET.to_act(state) == set()
    assert RULESET.outcome(state).winners == [1]
    # No kingdom may change any more.
    assert refusal(state, 1, {"type": "return_group", "tier": 3}) == "game_over"
    assert RULESET.legal_commands(state, 0) == []


def test_a_win_during_a_battle_leaves_the_bids_with_their_bidders():
    state = table(
        hands={0: ["Y1b", "Y2b"], 1: ["R7b"], 2: ["R7a", "R8a", "R9a"]},
        groups={2: [REDS[:3], REDS[3:6]]},
        auto_complete=False,
    )
    play(state, (0, {"type": "challenge", "seat": 1}), (1, {"type": "bid", "card": "R7b"}))
    play(state, (2, {"type": "lay_group", "cards": ["R7a", "R8a", "R9a"]}))
    outcome = RULESET.outcome(state)
    assert outcome.winners == [2]
    assert outcome.breakdown[1]["cards_held"] == 1 and count_cards(state) == 84


def test_auto_complete_lays_a_completable_kingdom_after_a_battle():
    # The defender gives up; the challenger receives the R9a it lacked.
    state = table(hands={0: REDS[:8] + ["Y9b"], 1: ["R9a", "B1b"], 2: ["B2b"]})
    events = play(
        state,
        (0, {"type": "challenge", "seat": 1}),
        (1, {"type": "bid", "card": "R9a"}),
        (0, {"type": "bid", "card": "Y9b"}),
        (1, {"type": "give_up"}),
    )
    laid = [e.public for e in events if e.type == "group_laid"]
    assert [g["cards"] for g in laid] == [REDS[:3], REDS[3:6], REDS[6:]]
    assert all(g["auto"] for g in laid)
    assert types(events)[-2:] == ["kingdom_completed", "game_ended"]
    assert RULESET.outcome(state).winners == [0]


def test_without_auto_complete_the_cards_stay_in_the_hand():
    state = table(hands={0: REDS[:8] + ["Y9b"], 1: ["R9a", "B1b"], 2: ["B2b"]}, auto_complete=False)
    play(
        state,
        (0, {"type": "challenge", "seat": 1}),
        (1, {"type": "bid", "card": "R9a"}),
        (0, {"type": "bid", "card": "Y9b"}),
        (1, {"type": "give_up"}),
    )
    assert not state.finished and state.challenger == 1
    assert set(REDS) <= set(state.hands[0])
    assert {"type": "lay_group", "cards": REDS[6:]} in RULESET.legal_commands(state, 0)


def test_auto_complete_keeps_the_groups_already_laid_under_the_winning_flag():
    state = table(
        hands={0: REDS[3:8] + ["Y9b"], 1: ["R9a", "B1b"], 2: ["B2b"]},
        groups={0: [REDS[:3]]},
    )
    events = play(
        state,
        (0, {"type": "challenge", "seat": 1}),
        (1, {"type": "bid", "card": "R9a"}),
        (0, {"type": "bid", "card": "Y9b"}),
        (1, {"type": "give_up"}),
    )
    assert "group_returned" not in types(events)
    assert [e.public["tier"] for e in events if e.type == "group_laid"] == [2, 3]


def test_players_completing_at_the_same_moment_share_the_win():
    # The exchange hands each the 9 the other lacks.
    state = table(hands={0: REDS[:8] + ["Y9a"], 1: YELLOWS[:8] + ["R9a"], 2: ["B1b"]})
    events = play(
        state,
        (0, {"type": "challenge", "seat": 1}),
        (1, {"type": "bid", "card": "R9a"}),
        (0, {"type": "bid", "card": "Y9a"}),
        (1, {"type": "give_up"}),
    )
    assert first(events, "kingdom_completed") == {"seats": [0, 1]}
    outcome = RULESET.outcome(state)
    assert outcome.ranking == [[0, 1], [2]]


def test_auto_complete_at_the_deal_ends_the_game_before_the_first_draw():
    events = RULESET.setup({}, 3, StackedDeck(REDS + YELLOWS))
    assert "card_drawn" not in types(events)
    assert first(events, "kingdom_completed") == {"seats": [0, 1]}
    state = RULESET.fold(events)
    assert state.finished and RULESET.outcome(state).winners == [0, 1]


def test_no_auto_complete_at_the_deal_when_the_option_is_off():
    events = RULESET.setup({"auto_complete": False}, 3, StackedDeck(REDS + YELLOWS))
    assert types(events) == ["cards_dealt", "card_drawn"]


# ---- the end of the source ------------------------------------------------------------
def exhausted():
    """The last card of the source is in the centre; seat 0 challenges seat 1."""
    state = table(hands={0: ["Y2a", "T1"], 1: ["R7a"], 2: ["R1b"]}, source=[])
    play(
        state,
        (0, {"type": "challenge", "seat": 1}),
        (1, {"type": "bid", "card": "R7a"}),
        (0, {"type": "bid", "card": "Y2a"}),
    )
    return state


def test_when_the_source_is_exhausted_every_player_has_one_last_turn():
    state = exhausted()
    assert state.phase == "last_round"
    assert RULESET.to_act(state) == {0, 1, 2}
    assert RULESET.legal_commands(state, 2) == [
        {"type": "end_last_turn"},
        {"type": "lay_card", "card": "R1b"},
    ]
    assert RULESET.legal_commands(state, 0) == [
        {"type": "end_last_turn"},
        {"type": "lay_treasure", "card": "T1"},
        {"type": "lay_card", "card": "R7a"},
    ]
    assert refusal(state, 0, {"type": "challenge", "seat": 1}) == "wrong_phase"
    assert refusal(state, 0, {"type": "keep_kingdom"}) == "wrong_phase"


def test_the_last_turn_may_improve_the_kingdom_then_the_ranking_decides():
    state = exhausted()
    play(state, (0, {"type": "lay_treasure", "card": "T1"}), (0, {"type": "end_last_turn"}))
    assert refusal(state, 0, {"type": "end_last_turn"}) == "last_turn_over"
    assert refusal(state, 0, {"type": "return_treasure", "card": "T1"}) == "last_turn_over"
    assert RULESET.outcome(state) is None
    events = play(state, (2, {"type": "end_last_turn"}), (1, {"type": "end_last_turn"}))
    assert first(events, "game_ended") == {"reason": "source_exhausted", "completed": []}
    outcome = RULESET.outcome(state)
    # Seat 0 laid its Treasure (½); seat 1 won the battle: B5c and Y2a in hand.
    assert outcome.ranking[0] == [0]
    assert outcome.breakdown[1]["cards_held"] == len(state.hands[1]) == 2


def test_completing_a_kingdom_in_the_last_round_still_wins_at_once():
    state = table(
        hands={0: ["Y2a"], 1: ["R7b"], 2: REDS[6:]},
        groups={2: [REDS[:3], REDS[3:6]]},
        source=[],
        auto_complete=False,
    )
    play(
        state,
        (0, {"type": "challenge", "seat": 1}),
        (1, {"type": "bid", "card": "R7b"}),
        (0, {"type": "bid", "card": "Y2a"}),
        (0, {"type": "end_last_turn"}),
    )
    events = play(state, (2, {"type": "lay_group", "cards": REDS[6:]}))
    assert types(events) == ["group_laid", "kingdom_completed", "game_ended"]
    assert RULESET.outcome(state).winners == [2]


def test_end_last_turn_before_the_source_runs_out_is_refused():
    assert refusal(table(), 0, {"type": "end_last_turn"}) == "not_last_round"


# ---- refusals ---------------------------------------------------------------------------
def test_junk_commands_are_refused_with_a_code():
    state = table(hands={0: ["R1a", "Y2a", "B3a"], 1: ["R7a"]})
    cases = {
        "unknown_command": [None, [], "bid", {}, {"type": "draw"}, {"type": 7}, {"type": None}],
        "bad_card": [{"type": "bid"}, {"type": "lay_treasure", "card": ["T1"]}],
        "bad_cards": [
            {"type": "lay_group"},
            {"type": "lay_group", "cards": "R1a"},
            {"type": "lay_group", "cards": ["R1a", "Y2a"]},
            {"type": "lay_group", "cards": ["R1a", "Y2a", 3]},
            {"type": "lay_group", "cards": ["R1a", "R1a", "B3a"]},
            {"type": "lay_group", "cards": [["R1a"], "Y2a", "B3a"]},
        ],
    }
    for code, commands in cases.items():
        for command in commands:
            assert refusal(state, 0, command) == code, command
    assert refusal(state, 7, {"type": "give_up"}) == "not_your_turn"
    assert refusal(state, -1, {"type": "give_up"}) == "not_your_turn"


def test_a_finished_game_refuses_every_command():
    state = RULESET.fold(RULESET.setup({}, 3, StackedDeck(REDS + YELLOWS)))
    assert refusal(state, 2, {"type": "challenge", "seat": 0}) == "game_over"
    assert RULESET.to_act(state) == set()


def test_service_events_are_ignored_by_the_fold():
    state = table()
    before = RULESET.dump(state)
    RULESET.evolve(state, Event("seat_resigned", {"seat": 1}))
    assert RULESET.dump(state) == before


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
