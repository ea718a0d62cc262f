from games.rules.kingdom_cards import RULESET
from tests.rules.kingdom_cards.positions import first, play, refusal, table, types

CHALLENGE_1 = (0, {"type": "challenge", "seat": 1})
KEEP = {"type": "keep_kingdom"}


def bid(seat, card):
    return (seat, {"type": "bid", "card": card})


def duel(challenger_hand, defender_hand, **kwargs):
    """Seat 0 has challenged seat 1 over the centre card B5c."""
    state = table(hands={0: challenger_hand, 1: defender_hand, 2: ["R1c"]}, **kwargs)
    play(state, CHALLENGE_1)
    return state


def test_challenging_names_the_defender_who_must_bid():
    state = table(hands={0: ["R2a"], 1: ["R7a"]})
    events = play(state, CHALLENGE_1)
    assert first(events, "opponent_challenged") == {"seat": 0, "defender": 1}
    assert state.phase == "defend" and RULESET.to_act(state) >= {1}
    assert RULESET.legal_commands(state, 1) == [
        {"type": "bid", "card": "R7a"},
        {"type": "lay_card", "card": "R7a"},
        KEEP,
    ]


def test_the_defenders_attack_is_its_card_plus_its_bonus():
    state = duel(["R2a"], ["R7a"], groups={1: [["R4a", "Y5a", "B6a"]]})
    events = play(state, bid(1, "R7a"))
    assert first(events, "card_bid") == {
        "seat": 1,
        "card": "R7a",
        "role": "attack",
        "total_halves": 14 + 2,  # 7 plus the army's 1, in half-points
    }


def test_a_counterattack_below_the_defender_loses_at_once():
    state = duel(["Y2a"], ["R7a"])
    events = play(state, bid(1, "R7a"), bid(0, "Y2a"))
    won = first(events, "battle_won")
    assert won == {
        "winner": 1,
        "loser": 0,
        "card": "B5c",
        "reason": "higher_attack",
        "defender_total_halves": 14,
        "challenger_total_halves": 4,
    }
    assert first(events, "bids_exchanged") == {
        "challenger": 0,
        "defender": 1,
        "to_challenger": ["R7a"],
        "to_defender": ["Y2a"],
    }
    assert state.hands[0] == ["R7a"] and sorted(state.hands[1]) == ["B5c", "Y2a"]


def test_the_challengers_bonus_counts_in_the_counterattack():
    # 6 + ½ (a people) beats the defender's 6.
    state = duel(["Y6a"], ["R6a"], groups={0: [["R1a", "R2a", "R3a"]]})
    events = play(state, bid(1, "R6a"), bid(0, "Y6a"))
    assert events[-1].public == {
        "seat": 0, "card": "Y6a", "role": "counterattack", "total_halves": 13,
    }  # fmt: skip
    assert state.phase == "raise"


def test_an_equal_counterattack_lets_the_defender_raise_or_give_up():
    state = duel(["Y7a"], ["R7a", "R2a", "B9a"])
    play(state, bid(1, "R7a"), bid(0, "Y7a"))
    assert state.phase == "raise"
    assert RULESET.legal_commands(state, 1) == [
        {"type": "bid", "card": "R2a"},
        {"type": "give_up"},
    ]


def test_giving_up_hands_the_centre_to_the_challenger_and_the_bids_are_exchanged():
    state = duel(["Y7a", "Y1a"], ["R7a", "R2a"])
    events = play(state, bid(1, "R7a"), bid(0, "Y7a"), (1, {"type": "give_up"}))
    assert types(events)[-5:-2] == ["battle_given_up", "battle_won", "bids_exchanged"]
    assert first(events, "battle_won")["reason"] == "gave_up"
    assert sorted(state.hands[0]) == ["B5c", "R7a", "Y1a"]
    assert sorted(state.hands[1]) == ["R2a", "Y7a"]


def test_a_raise_must_be_of_the_colour_of_the_first_bid():
    state = duel(["B9a", "B1a"], ["R7a", "Y9a", "R5a"])
    play(state, bid(1, "R7a"), bid(0, "B9a"))
    assert refusal(state, 1, {"type": "bid", "card": "Y9a"}) == "not_same_colour"


def test_a_raise_must_make_the_defender_surpass_the_challenger():
    state = duel(["B9a", "B1a"], ["R7a", "R1a", "R2a", "R5a"])
    play(state, bid(1, "R7a"), bid(0, "B9a"))
    # 7 + 2 = 9 only equals the challenger's 9: not enough.
    assert refusal(state, 1, {"type": "bid", "card": "R2a"}) == "raise_too_low"
    assert refusal(state, 1, {"type": "bid", "card": "R1a"}) == "raise_too_low"
    assert [c for c in RULESET.legal_commands(state, 1) if c["type"] == "bid"] == [
        {"type": "bid", "card": "R5a"}
    ]


def test_a_raise_wins_when_the_challengers_second_card_falls_short():
    state = duel(["B9a", "B2a"], ["R7a", "R5a"])
    events = play(state, bid(1, "R7a"), bid(0, "B9a"), bid(1, "R5a"), bid(0, "B2a"))
    assert first(events, "battle_won")["winner"] == 1
    assert first(events, "battle_won")["defender_total_halves"] == 24
    assert first(events, "battle_won")["challenger_total_halves"] == 22


def test_a_raise_fails_when_the_challengers_second_card_of_the_same_colour_adds_up():
    state = duel(["B9a", "B6a"], ["R7a", "R5a"])
    events = play(state, bid(1, "R7a"), bid(0, "B9a"), bid(1, "R5a"), bid(0, "B6a"))
    second = [e.public for e in events if e.type == "card_bid"][-1]
    assert second["role"] == "second_card" and second["first_card_counts"] is True
    assert second["total_halves"] == 30
    won = first(events, "battle_won")
    assert (won["winner"], won["reason"]) == (0, "higher_attack")
    assert sorted(state.hands[0]) == ["B5c", "R5a", "R7a"]
    assert sorted(state.hands[1]) == ["B6a", "B9a"]


def test_a_second_card_of_another_colour_replaces_the_first():
    state = duel(["B9a", "Y8b"], ["R7a", "R5a"])
    events = play(state, bid(1, "R7a"), bid(0, "B9a"), bid(1, "R5a"), bid(0, "Y8b"))
    second = [e.public for e in events if e.type == "card_bid"][-1]
    assert second["first_card_counts"] is False and second["total_halves"] == 16
    assert first(events, "battle_won")["winner"] == 1


def test_equal_attacks_after_the_second_card_go_to_the_challenger():
    state = duel(["B9a", "B3a"], ["R7a", "R5a"])
    events = play(state, bid(1, "R7a"), bid(0, "B9a"), bid(1, "R5a"), bid(0, "B3a"))
    won = first(events, "battle_won")
    assert (won["defender_total_halves"], won["challenger_total_halves"]) == (24, 24)
    assert (won["winner"], won["reason"]) == (0, "tie_to_challenger")


def test_a_treasure_bid_is_worth_fifteen():
    state = duel(["B9a"], ["T1"], groups={1: [["R1a", "R2a", "R3a"]]})
    events = play(state, bid(1, "T1"))
    assert first(events, "card_bid")["total_halves"] == 30 + 1
    events = play(state, bid(0, "B9a"))
    assert first(events, "battle_won")["winner"] == 1
    assert state.hands[0] == ["T1"]


def test_nothing_can_raise_on_a_treasure():
    state = duel(["T2"], ["T1", "R9a", "Y9a"])
    play(state, bid(1, "T1"), bid(0, "T2"))
    assert state.phase == "raise"
    assert refusal(state, 1, {"type": "bid", "card": "R9a"}) == "cannot_raise_on_treasure"
    assert RULESET.legal_commands(state, 1) == [{"type": "give_up"}]


def test_a_treasure_cannot_be_a_raise():
    state = duel(["B9a", "B1a"], ["R7a", "T1"])
    play(state, bid(1, "R7a"), bid(0, "B9a"))
    assert refusal(state, 1, {"type": "bid", "card": "T1"}) == "not_same_colour"
    assert RULESET.legal_commands(state, 1) == [{"type": "give_up"}]


def test_a_treasure_as_second_card_counts_as_another_colour():
    state = duel(["B9a", "T2"], ["R7a", "R5a"])
    events = play(state, bid(1, "R7a"), bid(0, "B9a"), bid(1, "R5a"), bid(0, "T2"))
    second = [e.public for e in events if e.type == "card_bid"][-1]
    assert second["first_card_counts"] is False and second["total_halves"] == 30
    assert first(events, "battle_won")["winner"] == 0


def test_after_a_treasure_as_first_card_any_second_card_replaces_it():
    state = duel(["T1", "B8a"], ["R9a", "R8a"])
    events = play(state, bid(1, "R9a"), bid(0, "T1"), bid(1, "R8a"), bid(0, "B8a"))
    second = [e.public for e in events if e.type == "card_bid"][-1]
    assert second["first_card_counts"] is False and second["total_halves"] == 16
    assert first(events, "battle_won")["winner"] == 1


def test_kingdoms_lock_at_the_defenders_first_bid_and_unlock_when_the_battle_ends():
    state = table(hands={0: ["T1", "Y2a"], 1: ["T2", "R7a"], 2: ["T3"]})
    play(state, CHALLENGE_1)
    # Before the first bid both battle players may still change their kingdoms.
    assert {"type": "lay_treasure", "card": "T1"} in RULESET.legal_commands(state, 0)
    assert {"type": "lay_treasure", "card": "T2"} in RULESET.legal_commands(state, 1)
    play(state, bid(1, "R7a"))
    assert refusal(state, 0, {"type": "lay_treasure", "card": "T1"}) == "kingdom_locked"
    assert RULESET.legal_commands(state, 1) == []
    assert RULESET.view(state, 2)["locked"] == [0, 1]
    # A player outside the battle may change their kingdom at any time.
    play(state, (2, {"type": "lay_treasure", "card": "T3"}))
    play(state, bid(0, "Y2a"))
    assert state.phase == "challenge" and state.challenger == 1
    play(state, (0, {"type": "lay_treasure", "card": "T1"}))
    assert state.treasures[0] == ["T1"]


def test_a_defender_with_no_card_loses_at_once_and_nothing_is_exchanged():
    state = table(hands={0: ["Y2a"], 1: []})
    events = play(state, CHALLENGE_1)
    assert types(events)[:3] == ["opponent_challenged", "battle_won", "turn_passed"]
    assert first(events, "battle_won")["reason"] == "no_card_to_bid"
    assert sorted(state.hands[0]) == ["B5c", "Y2a"]


def test_an_empty_handed_defender_still_gets_its_window_to_take_cards_back_and_bid():
    state = table(hands={0: ["Y2a"], 1: []}, groups={1: [["R1a", "R2a", "R3a"]]})
    assert types(play(state, CHALLENGE_1)) == ["opponent_challenged"]
    assert state.phase == "defend" and RULESET.view(state, None)["awaiting"] == [1]
    assert {"type": "return_group", "tier": 1} in RULESET.legal_commands(state, 1)
    play(state, (1, {"type": "return_group", "tier": 1}), bid(1, "R3a"))
    assert state.defender_bids == ["R3a"] and state.phase == "counter"


def test_an_empty_handed_defender_that_keeps_its_kingdom_has_no_card_to_bid():
    state = table(hands={0: ["Y2a"], 1: []}, groups={1: [["R1a", "R2a", "R3a"]]})
    events = play(state, CHALLENGE_1, (1, KEEP))
    assert first(events, "battle_won")["reason"] == "no_card_to_bid"
    assert state.groups[1][0] == ["R1a", "R2a", "R3a"]


def test_an_empty_handed_defender_with_no_change_left_loses_at_once():
    state = table(hands={0: ["Y2a"], 1: []}, treasures={1: ["T1"]})
    state.changes_left[1] = 0
    events = play(state, CHALLENGE_1)
    assert first(events, "battle_won")["reason"] == "no_card_to_bid"


def test_when_the_defender_plays_the_first_card_incomplete_groups_return_to_both_hands():
    state = table(
        hands={0: ["Y9a"], 1: ["R7b"], 2: ["B2b"]},
        groups={0: [["R1a", "Y2a"]], 1: [["R4a"], ["R7a", "R8a", "R9a"]], 2: [["B1a"]]},
    )
    play(state, CHALLENGE_1)
    events = play(state, bid(1, "R7b"))
    returned = [e.public for e in events if e.type == "incomplete_groups_returned"]
    assert returned == [{"seat": 1, "cards": ["R4a"]}, {"seat": 0, "cards": ["R1a", "Y2a"]}]
    assert state.groups[0] == [None, None, None] and state.hands[0] == ["R1a", "Y2a", "Y9a"]
    assert state.groups[1] == [None, None, ["R7a", "R8a", "R9a"]]
    assert state.groups[2][0] == ["B1a"]  # outside the battle nothing returns


def test_a_challenger_counters_with_a_card_its_incomplete_group_returned():
    state = table(hands={0: [], 1: ["R7b"]}, groups={0: [["Y2a"]]})
    play(state, CHALLENGE_1)
    events = play(state, bid(1, "R7b"))
    assert "battle_won" not in types(events)
    assert RULESET.legal_commands(state, 0) == [{"type": "bid", "card": "Y2a"}]


def test_a_challenger_with_no_card_to_counter_loses_at_once():
    state = duel([], ["R7a"], treasures={0: ["T1"]})
    events = play(state, bid(1, "R7a"))
    won = first(events, "battle_won")
    assert (won["winner"], won["reason"]) == (1, "no_card_to_counter")
    assert first(events, "bids_exchanged")["to_challenger"] == ["R7a"]
    assert state.hands[1] == ["B5c"]


def test_a_challenger_with_no_second_card_after_a_raise_loses_at_once():
    state = duel(["B9a"], ["R7a", "R5a"])
    events = play(state, bid(1, "R7a"), bid(0, "B9a"), bid(1, "R5a"))
    assert first(events, "battle_won")["reason"] == "no_card_to_counter"
    assert sorted(state.hands[0]) == ["R5a", "R7a"]
    assert sorted(state.hands[1]) == ["B5c", "B9a"]


def test_only_the_challenger_challenges_and_never_itself():
    state = table(hands={0: ["R1a"], 1: ["R2a"], 2: ["R3a"]})
    assert refusal(state, 1, {"type": "challenge", "seat": 2}) == "not_your_turn"
    assert refusal(state, 0, {"type": "challenge", "seat": 0}) == "cannot_challenge_self"
    for junk in [3, -1, "1", None, True, 1.5]:
        assert refusal(state, 0, {"type": "challenge", "seat": junk}) == "bad_seat"
    play(state, CHALLENGE_1)
    assert refusal(state, 0, {"type": "challenge", "seat": 2}) == "wrong_phase"


def test_bids_out_of_turn_are_refused():
    state = table(hands={0: ["R1a"], 1: ["R2a"], 2: ["R3a"]})
    assert refusal(state, 0, {"type": "bid", "card": "R1a"}) == "no_battle"
    play(state, CHALLENGE_1)
    assert refusal(state, 0, {"type": "bid", "card": "R1a"}) == "not_your_turn"
    assert refusal(state, 2, {"type": "bid", "card": "R3a"}) == "not_your_turn"
    assert refusal(state, 1, {"type": "bid", "card": "R3a"}) == "card_not_in_hand"
    assert refusal(state, 1, {"type": "give_up"}) == "cannot_give_up"
    assert refusal(state, 1, {"type": "bid", "card": "R2"}) == "bad_card"


def test_the_turn_passes_clockwise_and_the_next_challenger_draws():
    state = duel(["Y2a"], ["R7a"], challenger=0)
    top = state.source[-1]
    events = play(state, bid(1, "R7a"), bid(0, "Y2a"))
    assert types(events)[-2:] == ["turn_passed", "card_drawn"]
    assert first(events, "turn_passed") == {"seat": 1, "turn": 2}
    assert first(events, "card_drawn")["card"] == top
    assert (state.challenger, state.centre, state.phase) == (1, top, "challenge")
    assert state.defender is None and state.defender_bids == state.challenger_bids == []


def test_the_last_seat_passes_the_turn_to_seat_zero():
    state = table(hands={0: ["R7a"], 1: ["R2a"], 2: ["Y3a"]}, challenger=2)
    play(state, (2, {"type": "challenge", "seat": 0}), bid(0, "R7a"), bid(2, "Y3a"))
    assert state.challenger == 0
