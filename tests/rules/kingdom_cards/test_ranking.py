from games.rules.kingdom_cards import RULESET
from games.rules.kingdom_cards.ranking import final_outcome, ranking_key
from games.rules.kingdom_cards.state import FINISHED
from tests.rules.kingdom_cards.positions import table

PEOPLE = ["R1a", "Y2a", "B3a"]
ARMY = ["R4a", "Y5a", "B6a"]
COURT = ["R7a", "Y8a", "B9a"]


def finished(**kwargs):
    state = table(**kwargs)
    state.phase = FINISHED
    state.end_reason = "source_exhausted"
    return state


def test_a_complete_kingdom_ranks_first_whatever_the_others_hold():
    state = finished(
        groups={0: [PEOPLE, ARMY, COURT], 1: [["R4b", "R5b", "R6b"], ["R7b", "R8b", "R9b"]]},
        treasures={1: ["T1", "T2", "T3"]},  # 1 + 2 + 1½ = 4½ beats the complete 3½
        hands={1: ["Y1b", "Y2b"]},
    )
    state.completed = [0]
    outcome = final_outcome(state)
    assert outcome.ranking[0] == [0]
    assert outcome.scores[1] == 9 > outcome.scores[0] == 7
    assert outcome.winners == [0]


def test_the_others_rank_by_bonus_then_by_cards_held():
    state = finished(
        players=4,
        groups={1: [ARMY], 2: [PEOPLE], 3: [["R4b", "R5b", "R6b"]]},
        hands={0: ["Y9c", "Y8c", "Y7c", "Y6c"], 1: ["B1c"], 3: ["B2c", "B3c"]},
    )
    outcome = final_outcome(state)
    # Seats 1 and 3 hold an army (1 point); seat 3 holds more cards.
    assert outcome.ranking == [[3], [1], [2], [0]]
    assert outcome.breakdown[3] == {"complete": 0, "bonus_halves": 2, "cards_held": 5}
    assert outcome.breakdown[0] == {"complete": 0, "bonus_halves": 0, "cards_held": 4}


def test_equal_bonus_and_equal_cards_share_the_place():
    state = finished(hands={0: ["R1b"], 1: ["R2b"], 2: ["R3b", "R4b"]})
    assert final_outcome(state).ranking == [[2], [0, 1]]


def test_cards_held_count_the_hand_and_the_kingdom_with_its_treasures():
    state = finished(groups={0: [PEOPLE]}, treasures={0: ["T1"]}, hands={0: ["Y9c"]})
    assert state.cards_held(0) == 5
    assert ranking_key(state, 0) == (0, 2, 5)


def test_players_completing_at_the_same_moment_share_the_win_whatever_their_bonus():
    state = finished(
        groups={0: [PEOPLE, ARMY, COURT], 1: [["R1b", "R2b", "R3b"], ["R4b", "R5b", "R6b"]]},
        treasures={1: ["T1"]},
    )
    state.groups[1][2] = ["R7b", "R8b", "R9b"]
    state.completed = [0, 1]
    outcome = final_outcome(state)
    assert outcome.ranking == [[0, 1], [2]]
    assert outcome.winners == [0, 1]


def test_scores_are_bonuses_in_whole_half_points():
    state = finished(groups={0: [PEOPLE], 1: [COURT]}, treasures={2: ["T2"]})
    outcome = RULESET.outcome(state)
    assert outcome.scores == {0: 1, 1: 4, 2: 1}
    assert all(type(v) is int for b in outcome.breakdown.values() for v in b.values())


def test_there_is_no_outcome_before_the_game_ends():
    assert RULESET.outcome(table()) is None
