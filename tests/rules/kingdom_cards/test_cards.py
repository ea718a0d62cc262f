import random
from collections import Counter

import pytest

from games.rules import get_ruleset
from games.rules.base import IllegalCommand
from games.rules.kingdom_cards import RULESET
from games.rules.kingdom_cards.cards import (
    COLOUR,
    DECK,
    HAND_SIZE,
    ROLE_OF_VALUE,
    TIER_BONUS_HALVES,
    TIER_OF,
    TIER_ROLE,
    TREASURE_BONUS_HALVES,
    TREASURES,
    VALUE,
    bid_halves,
    card_name,
    is_card,
)


def test_ruleset_is_registered_under_its_key():
    ruleset = get_ruleset("kingdom-cards")
    assert ruleset is RULESET
    assert (ruleset.version, ruleset.name) == ("1.0", "Kingdom Cards")
    assert (ruleset.min_players, ruleset.max_players) == (3, 5)


def test_deck_has_three_copies_of_every_colour_and_value_plus_three_treasures():
    assert len(DECK) == len(set(DECK)) == 84
    numbers = Counter((COLOUR[c], VALUE[c]) for c in DECK if COLOUR[c] is not None)
    assert len(numbers) == 27
    assert set(numbers.values()) == {3}
    assert [c for c in DECK if COLOUR[c] is None] == list(TREASURES) == ["T1", "T2", "T3"]


def test_card_id_names_colour_value_and_copy():
    assert (COLOUR["R7b"], VALUE["R7b"]) == ("R", 7)
    assert (COLOUR["Y1a"], VALUE["Y1a"]) == ("Y", 1)
    assert (COLOUR["B9c"], VALUE["B9c"]) == ("B", 9)
    assert card_name("R7b") == "red 7 (sage)"
    assert card_name("T2") == "Treasure"
    for junk in ["R0a", "R7d", "Q7a", "T4", 7, None, ["R7b"]]:
        assert not is_card(junk)


def test_roles_form_a_people_an_army_and_a_court():
    assert [ROLE_OF_VALUE[v] for v in range(1, 10)] == [
        "servant", "artisan", "farmer", "soldier", "knight", "commander", "sage", "noble", "king",
    ]  # fmt: skip
    assert [TIER_OF[f"R{v}a"] for v in range(1, 10)] == [1, 1, 1, 2, 2, 2, 3, 3, 3]
    assert TIER_ROLE == {1: "people", 2: "army", 3: "court"}


def test_bonuses_are_whole_half_points_people_1_army_2_court_4_treasure_1():
    assert TIER_BONUS_HALVES == {1: 1, 2: 2, 3: 4}
    assert TREASURE_BONUS_HALVES == 1
    assert all(type(v) is int for v in TIER_BONUS_HALVES.values())


def test_treasure_bids_fifteen_and_a_number_card_its_value_in_half_points():
    assert bid_halves("T1") == 30
    assert bid_halves("R7b") == 14
    assert all(type(bid_halves(c)) is int for c in DECK)


@pytest.mark.parametrize("players", [3, 4, 5])
def test_deal_gives_nine_cards_each_and_the_rest_is_the_source(players):
    events = RULESET.setup({}, players, random.Random(players))
    dealt = events[0]
    assert dealt.type == "cards_dealt"
    assert dealt.public["players"] == players
    assert dealt.public["options"] == {"allow_two_players": False, "auto_complete": True}
    hands = [dealt.private[s]["hand"] for s in range(players)]
    source = dealt.private[-1]["source"]
    assert all(len(h) == HAND_SIZE for h in hands)
    assert len(source) == 84 - 9 * players
    assert sorted([c for h in hands for c in h] + source) == sorted(DECK)
    assert "hand" not in dealt.public and "source" not in dealt.public


def test_first_challenger_is_seat_zero_and_draws_the_top_card_into_the_centre():
    events = RULESET.setup({"auto_complete": False}, 4, random.Random(7))
    source = events[0].private[-1]["source"]
    drawn = events[-1]
    assert drawn.type == "card_drawn"
    assert drawn.public == {"seat": 0, "card": source[0], "source_size": len(source) - 1, "turn": 1}
    state = RULESET.fold(events)
    assert state.centre == source[0] and state.phase == "challenge"


def test_same_seed_deals_the_same_cards_and_another_seed_deals_others():
    a = RULESET.setup({}, 3, random.Random(1))
    b = RULESET.setup({}, 3, random.Random(1))
    c = RULESET.setup({}, 3, random.Random(2))
    assert a == b
    assert a[0].private != c[0].private


def test_two_players_are_allowed_only_with_the_option():
    assert RULESET.seat_range({}) == (3, 5)
    assert RULESET.seat_range({"allow_two_players": True}) == (2, 5)
    with pytest.raises(IllegalCommand) as refused:
        RULESET.setup({}, 2, random.Random(0))
    assert refused.value.code == "bad_player_count"
    events = RULESET.setup({"allow_two_players": True}, 2, random.Random(0))
    assert RULESET.fold(events).players == 2


def test_six_players_and_unknown_options_are_refused():
    with pytest.raises(IllegalCommand) as refused:
        RULESET.setup({}, 6, random.Random(0))
    assert refused.value.code == "bad_player_count"
    with pytest.raises(IllegalCommand) as refused:
        RULESET.setup({"jokers": True}, 3, random.Random(0))
    assert refused.value.code == "unknown_option"
    with pytest.raises(IllegalCommand) as refused:
        RULESET.setup({"auto_complete": "yes"}, 3, random.Random(0))
    assert refused.value.code == "bad_option"
