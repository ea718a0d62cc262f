"""The instant win: a kingdom completed under one flag ends the game at once, by hand or by
auto-complete, at the deal too."""

from games.rules.kingdom_cards import RULESET
from tests.rules.kingdom_cards.positions import (
    REDS,
    YELLOWS,
    StackedDeck,
    count_cards,
    first,
    play,
    refusal,
    table,
    types,
)


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
