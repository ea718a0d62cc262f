from games.rules.kingdom_cards import RULESET
from games.rules.kingdom_cards.kingdom import (
    FLAGS,
    bonus_halves,
    completion_plan,
    empty_groups,
    formable_groups,
    group_flag,
    group_tier,
    is_complete,
    kingdom_flag,
)
from tests.rules.kingdom_cards.positions import first, play, refusal, table, types

PEOPLE = ["R1a", "Y2a", "B3a"]
ARMY = ["R4a", "Y5a", "B6a"]
COURT = ["R7a", "Y8a", "B9a"]


def test_a_group_is_the_three_cards_of_one_tier_in_ascending_order():
    assert group_tier(PEOPLE) == 1
    assert group_tier(ARMY) == 2
    assert group_tier(COURT) == 3
    assert group_tier(["R3a", "R4a", "R5a"]) is None  # two tiers
    assert group_tier(["R1a", "R2a"]) is None
    assert group_tier(["R1a", "R1b", "R2a"]) is None
    assert group_tier(["B3a", "Y2a", "R1a"]) is None  # descending


def test_a_treasure_is_never_part_of_a_group():
    assert group_tier(["T1", "R2a", "R3a"]) is None
    assert group_tier(["R1a", "T1", "R3a"]) is None


def test_the_flag_is_the_colours_of_the_lowest_middle_and_highest_card():
    assert group_flag(["R1a", "Y2c", "B3b"]) == "RYB"
    groups = empty_groups()
    groups[1] = ["B4a", "B5b", "R6c"]
    assert kingdom_flag(groups) == "BBR"
    assert kingdom_flag(empty_groups()) is None


def test_there_are_27_flags_with_repeated_colours_allowed():
    assert len(FLAGS) == len(set(FLAGS)) == 27
    assert {"RRR", "YYY", "BBB", "RYB"} <= set(FLAGS)


def test_a_group_with_repeated_colours_can_be_laid():
    state = table(hands={0: ["R1a", "R2b", "R3c"]})
    events = play(state, (0, {"type": "lay_group", "cards": ["R1a", "R2b", "R3c"]}))
    assert first(events, "group_laid") == {
        "seat": 0,
        "tier": 1,
        "cards": ["R1a", "R2b", "R3c"],
        "flag": "RRR",
        "bonus_halves": 1,
        "auto": False,
    }
    assert state.groups[0][0] == ["R1a", "R2b", "R3c"] and state.hands[0] == []


def test_all_groups_of_a_kingdom_must_fly_the_same_flag():
    state = table(hands={0: ["R4a", "Y5a", "B6a", "Y4a"]}, groups={0: [PEOPLE]})
    assert refusal(state, 0, {"type": "lay_group", "cards": ["Y4a", "Y5a", "B6a"]}) == "wrong_flag"
    play(state, (0, {"type": "lay_group", "cards": ARMY}))
    assert kingdom_flag(state.groups[0]) == "RYB"


def test_a_kingdom_holds_at_most_one_group_per_tier():
    state = table(hands={0: ["R1b", "Y2b", "B3b"]}, groups={0: [PEOPLE]})
    code = refusal(state, 0, {"type": "lay_group", "cards": ["R1b", "Y2b", "B3b"]})
    assert code == "tier_taken"


def test_group_cards_must_be_listed_lowest_first():
    state = table(hands={0: PEOPLE})
    code = refusal(state, 0, {"type": "lay_group", "cards": ["B3a", "R1a", "Y2a"]})
    assert code == "group_not_ascending"


def test_cards_of_two_tiers_are_not_a_group():
    state = table(hands={0: ["R3a", "R4a", "R5a"]})
    assert refusal(state, 0, {"type": "lay_group", "cards": ["R3a", "R4a", "R5a"]}) == "not_a_group"


def test_a_group_must_come_from_the_hand():
    state = table(hands={1: PEOPLE})
    assert refusal(state, 0, {"type": "lay_group", "cards": PEOPLE}) == "card_not_in_hand"


def test_bonus_is_half_a_point_per_people_one_per_army_two_per_court():
    groups = empty_groups()
    assert bonus_halves(groups, []) == 0
    groups[0] = PEOPLE
    assert bonus_halves(groups, []) == 1
    groups[1] = ARMY
    assert bonus_halves(groups, []) == 3
    groups[2] = COURT
    assert bonus_halves(groups, []) == 7


def test_a_treasure_in_the_kingdom_adds_half_a_point():
    state = table(hands={0: ["T1", "T2"]}, groups={0: [ARMY]})
    events = play(state, (0, {"type": "lay_treasure", "card": "T1"}))
    assert first(events, "treasure_laid") == {"seat": 0, "card": "T1", "bonus_halves": 3}
    assert state.bonus(0) == 3 and state.treasures[0] == ["T1"]


def test_a_treasure_may_be_laid_in_a_kingdom_without_groups():
    state = table(hands={0: ["T3"]})
    play(state, (0, {"type": "lay_treasure", "card": "T3"}))
    assert state.bonus(0) == 1 and kingdom_flag(state.groups[0]) is None


def test_only_a_treasure_is_laid_on_its_own():
    state = table(hands={0: ["R1a"]})
    assert refusal(state, 0, {"type": "lay_treasure", "card": "R1a"}) == "not_a_treasure"
    assert refusal(state, 0, {"type": "lay_treasure", "card": "T1"}) == "card_not_in_hand"


def test_a_treasure_can_be_returned_to_the_hand():
    state = table(treasures={0: ["T2"]})
    assert refusal(state, 0, {"type": "return_treasure", "card": "T1"}) == "treasure_not_in_kingdom"
    events = play(state, (0, {"type": "return_treasure", "card": "T2"}))
    assert first(events, "treasure_returned")["bonus_halves"] == 0
    assert state.hands[0] == ["T2"] and state.treasures[0] == []


def test_returning_a_group_to_the_hand_frees_the_flag():
    state = table(hands={0: ["Y4a", "Y5a", "Y6a"]}, groups={0: [PEOPLE]})
    events = play(
        state,
        (0, {"type": "return_group", "tier": 1}),
        (0, {"type": "lay_group", "cards": ["Y4a", "Y5a", "Y6a"]}),
    )
    assert types(events) == ["group_returned", "group_laid"]
    assert kingdom_flag(state.groups[0]) == "YYY"
    assert sorted(state.hands[0]) == sorted(PEOPLE)


def test_returning_an_empty_tier_or_a_bad_tier_is_refused():
    state = table(groups={0: [PEOPLE]})
    assert refusal(state, 0, {"type": "return_group", "tier": 2}) == "no_group_in_tier"
    for junk in [0, 4, "1", True, None, 1.0]:
        assert refusal(state, 0, {"type": "return_group", "tier": junk}) == "bad_tier"


def test_legal_groups_list_every_copy_once_and_respect_the_flag():
    hand = ["R1a", "R1b", "Y2a", "B3a", "R4a", "Y5a", "Y6a"]
    assert formable_groups(hand, empty_groups()) == [
        ["R1a", "Y2a", "B3a"],
        ["R1b", "Y2a", "B3a"],
        ["R4a", "Y5a", "Y6a"],
    ]
    # Under an RYY court only the RYY army fits; under an RYB court only the RYB people.
    assert formable_groups(hand, [None, None, ["R7a", "Y8a", "Y9a"]]) == [["R4a", "Y5a", "Y6a"]]
    assert formable_groups(hand, [None, None, ["R7a", "Y8a", "B9a"]]) == [
        ["R1a", "Y2a", "B3a"],
        ["R1b", "Y2a", "B3a"],
    ]
    assert formable_groups(["R1a", "Y2a"], empty_groups()) == []
    assert formable_groups(hand, [None, None, ["B7a", "B8a", "B9a"]]) == []


def test_legal_commands_offer_exactly_the_groups_the_kingdom_accepts():
    state = table(hands={0: ["R1a", "R1b", "Y2a", "B3a", "Y4a", "Y5a", "B6a"]})
    lays = [c for c in RULESET.legal_commands(state, 0) if c["type"] == "lay_group"]
    assert lays == [
        {"type": "lay_group", "cards": ["R1a", "Y2a", "B3a"]},
        {"type": "lay_group", "cards": ["R1b", "Y2a", "B3a"]},
        {"type": "lay_group", "cards": ["Y4a", "Y5a", "B6a"]},
    ]


def test_a_kingdom_is_complete_with_a_people_an_army_and_a_court():
    assert not is_complete([PEOPLE, ARMY, None])
    assert is_complete([PEOPLE, ARMY, COURT])


def test_completion_plan_finds_a_complete_kingdom_from_hand_and_kingdom():
    hand = ["Y1a", "Y2a", "Y3a", "R4a", "Y5a", "B6a", "R7a", "Y8a", "B9a", "R1a", "B3a"]
    assert completion_plan(hand[:8], empty_groups()) is None
    # The laid RYB people is kept; army and court are laid in the same flag.
    returns, lays = completion_plan(hand, [["R1b", "Y2b", "B3b"], None, None])
    assert returns == [] and lays == [["R4a", "Y5a", "B6a"], ["R7a", "Y8a", "B9a"]]
    # A YYY people must go back when only the RYB flag completes.
    returns, lays = completion_plan(hand[3:] + ["Y2c"], [["Y1a", "Y2a", "Y3a"], None, None])
    assert returns == [1]
    assert lays[0] == ["R1a", "Y2a", "B3a"]


# ---- incomplete groups ------------------------------------------------------------------
def test_a_single_card_taken_back_leaves_an_incomplete_group_without_bonus_or_flag():
    state = table(groups={0: [PEOPLE]})
    events = play(state, (0, {"type": "return_card", "card": "Y2a"}))
    assert first(events, "card_returned") == {
        "seat": 0,
        "card": "Y2a",
        "tier": 1,
        "bonus_halves": 0,
    }
    assert state.groups[0][0] == ["R1a", "B3a"] and state.hands[0] == ["Y2a"]
    kingdom = RULESET.view(state, 1)["kingdoms"][0]
    assert (kingdom["bonus_halves"], kingdom["flag"]) == (0, None)


def test_an_incomplete_group_does_not_set_the_flag():
    state = table(hands={0: ["Y7a", "Y8a", "Y9a"]}, groups={0: [PEOPLE, ARMY]})
    play(state, (0, {"type": "return_card", "card": "Y2a"}))
    assert kingdom_flag(state.groups[0]) == "RYB"  # the army still flies it
    play(state, (0, {"type": "return_card", "card": "Y5a"}))
    assert kingdom_flag(state.groups[0]) is None and state.bonus(0) == 0
    play(state, (0, {"type": "lay_group", "cards": ["Y7a", "Y8a", "Y9a"]}))
    assert kingdom_flag(state.groups[0]) == "YYY"


def test_a_card_taken_back_can_be_put_back_later():
    state = table(groups={0: [PEOPLE]})
    play(state, (0, {"type": "return_card", "card": "B3a"}))
    assert {"type": "lay_card", "card": "B3a"} in RULESET.legal_commands(state, 0)
    events = play(state, (0, {"type": "lay_card", "card": "B3a"}))
    assert first(events, "card_laid") == {
        "seat": 0,
        "card": "B3a",
        "tier": 1,
        "flag": "RYB",
        "bonus_halves": 1,
    }
    assert state.groups[0][0] == PEOPLE and state.hands[0] == []


def test_the_card_that_completes_a_group_must_fit_the_flag():
    state = table(hands={0: ["Y6a", "B6b"]}, groups={0: [PEOPLE, ["R4a", "Y5a"]]})
    assert refusal(state, 0, {"type": "lay_card", "card": "Y6a"}) == "wrong_flag"
    assert {"type": "lay_card", "card": "Y6a"} not in RULESET.legal_commands(state, 0)
    play(state, (0, {"type": "lay_card", "card": "B6b"}))
    assert state.bonus(0) == 3


def test_a_tier_holds_one_card_of_each_value_and_no_group_beside_an_incomplete_one():
    state = table(hands={0: ["Y1b", "R1b", "Y2b", "B3b"]}, groups={0: [["R1a"]]})
    assert refusal(state, 0, {"type": "lay_card", "card": "Y1b"}) == "value_taken"
    code = refusal(state, 0, {"type": "lay_group", "cards": ["R1b", "Y2b", "B3b"]})
    assert code == "tier_taken"
    assert refusal(state, 0, {"type": "lay_card", "card": "T1"}) == "card_not_in_hand"
    assert refusal(state, 0, {"type": "return_card", "card": "R1b"}) == "card_not_in_kingdom"


def test_returning_an_incomplete_group_takes_its_cards_back_without_losing_bonus():
    state = table(groups={0: [["R1a", "Y2a"], ARMY]})
    events = play(state, (0, {"type": "return_group", "tier": 1}))
    assert first(events, "group_returned")["bonus_halves"] == 2
    assert state.hands[0] == ["R1a", "Y2a"] and state.groups[0][0] is None


def test_laying_the_last_card_of_the_third_group_wins_at_once():
    state = table(hands={1: ["B9a"]}, groups={1: [PEOPLE, ARMY, ["R7a", "Y8a"]]})
    events = play(state, (1, {"type": "lay_card", "card": "B9a"}))
    assert types(events) == ["card_laid", "kingdom_completed", "game_ended"]
    assert RULESET.outcome(state).winners == [1]


def test_auto_complete_takes_incomplete_groups_back_to_lay_the_winning_kingdom():
    # Seat 1 has no card to bid: seat 0 wins the centre's R9a beside its incomplete court.
    reds = ["R1a", "R2a", "R3a", "R4a", "R5a", "R6a"]
    state = table(hands={0: reds}, groups={0: [["R7a", "R8a"]]}, centre="R9a")
    events = play(state, (0, {"type": "challenge", "seat": 1}))
    assert first(events, "battle_won")["reason"] == "no_card_to_bid"
    returned = first(events, "group_returned")
    assert (returned["tier"], returned["cards"], returned["auto"]) == (3, ["R7a", "R8a"], True)
    assert types(events)[-2:] == ["kingdom_completed", "game_ended"]
    assert state.groups[0][2] == ["R7a", "R8a", "R9a"]
