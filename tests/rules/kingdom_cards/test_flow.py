"""The flow of play: who acts, the end of the source and the last round, refusals."""

from games.rules.base import Event
from games.rules.kingdom_cards import RULESET
from games.rules.kingdom_cards.state import KINGDOM_CHANGES_PER_TURN
from tests.rules.kingdom_cards.positions import (
    LAY_TREASURE,
    REDS,
    RETURN_TREASURE,
    YELLOWS,
    StackedDeck,
    first,
    play,
    refusal,
    table,
    types,
)


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
