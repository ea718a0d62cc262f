"""The turn's terrain cards: revealed, discarded, drawn, reshuffled, removed and replaced
when their terrain is full."""

from __future__ import annotations

import random

from tests.rules.kingdom_builder.helpers import (
    RULESET,
    build,
    builds,
    play,
    position,
    refused,
    types,
    use,
)


# ---- terrain cards -------------------------------------------------------------------------
def test_the_terrain_card_is_revealed_at_the_start_of_the_turn():
    events = RULESET.setup({"board": "first_game"}, 3, random.Random(7))
    setup, started, revealed = events[0], events[1], events[2]
    seat = setup.public["start_player"]
    assert started.type == "turn_started" and started.public["seat"] == seat
    assert revealed.type == "terrain_card_revealed" and revealed.public["source"] == "hand"
    assert [revealed.public["terrain"]] == setup.private[seat]["hand"]
    assert "hand" not in setup.public


def test_the_card_is_discarded_and_a_secret_one_drawn_at_the_end_of_the_turn():
    s = position({}, card="grass")
    top = s.draw_pile[0]
    for hex_ in [(0, 0), (0, 1)]:
        s, _ = play(s, build(*hex_))
    s, events = play(s, build(0, 2))
    drawn = next(e for e in events if e.type == "terrain_card_drawn")
    assert "terrain" not in drawn.public and drawn.private == {0: {"terrain": top}}
    assert s.discard[-1] == "grass" and top in s.hands[0]


def test_the_discards_are_reshuffled_into_a_secret_pile_when_the_pile_is_empty():
    s = position({}, card="grass")
    s.discard, s.draw_pile = ["forest", "desert", "canyon"], []
    for hex_ in [(0, 0), (0, 1), (0, 2)]:
        s, events = play(s, build(*hex_))
    shuffle = next(e for e in events if e.type == "terrain_deck_reshuffled")
    assert shuffle.public == {"cards": 4}
    assert sorted(shuffle.private[-1]["draw_pile"]) == ["canyon", "desert", "forest", "grass"]
    assert list(shuffle.private) == [-1]


def test_no_empty_hex_of_the_terrain_removes_the_card_and_draws_another():
    s = position({}, {(2, 2): "G", (9, 9): "D"}, fill="C", card="grass")
    s.draw_pile = ["desert", "forest"]
    s, events = play(s, build(2, 2))
    assert types(events)[1:] == ["terrain_card_removed", "terrain_card_revealed"]
    assert s.removed == ["grass"] and s.card == "desert" and s.placed == 1
    assert builds(s) == {(9, 9)}


def test_the_card_is_replaced_at_the_start_of_a_turn_when_its_terrain_is_full():
    s = position({}, {(9, 9): "D"}, fill="C", card="canyon")
    s.hands[1], s.draw_pile = ["grass"], ["forest", "desert"]  # seat 0 draws the forest
    for hex_ in [(0, 0), (0, 1), (0, 2)]:
        s, events = play(s, build(*hex_))
    assert types(events)[-3:] == [
        "terrain_card_revealed",
        "terrain_card_removed",
        "terrain_card_revealed",
    ]
    assert s.active == 1 and s.card == "desert" and s.removed == ["grass"]


def seat_0_starts_a_turn_on(card: str, **laid):
    """Seat 1 ends its turn; seat 0's turn starts on ``card`` (grass cards to draw next)."""
    s = position(seat=1, **laid)
    s.placed, s.hands, s.draw_pile = 3, [[card], []], ["grass"] * 4
    return play(s, {"type": "end_turn"})


def tile_uses(s, tile: str) -> list:
    return [c for c in RULESET.legal_commands(s, 0) if c.get("tile") == tile]


def test_no_oracle_or_barn_on_a_replacement_card_when_the_terrain_is_gone_as_the_turn_starts():
    held = {0: [("oracle", (0, 0)), ("barn", (0, 1))]}
    s, events = seat_0_starts_a_turn_on("canyon", settlements={0: [(5, 5)]}, held=held)
    # Nothing else to do first: the card is replaced at once, for the mandatory action only.
    assert types(events)[-3:] == [
        "terrain_card_revealed",
        "terrain_card_removed",
        "terrain_card_revealed",
    ]
    assert events[-3].public["no_empty_hex"] is True
    line = RULESET.describe_event(events[-3].type, events[-3].public, {0: "Ann", 1: "Bob"})
    assert line == "Ann plays canyon: no empty hex of it is left, so no Oracle or Barn."
    assert "no_empty_hex" not in events[-1].public
    assert s.card == "grass" and s.card_gone_at_start
    assert RULESET.load(RULESET.dump(s)).card_gone_at_start  # kept in snapshots too
    assert not tile_uses(s, "oracle") and not tile_uses(s, "barn")
    assert refused(s, use("oracle", (5, 6))) == "terrain_gone_at_start"
    assert refused(s, use("barn", (5, 7), (5, 5))) == "terrain_gone_at_start"
    for hex_ in [(5, 6), (5, 7), (5, 8)]:
        s, events = play(s, build(*hex_))
    assert s.active == 1  # no Oracle or Barn after the mandatory action either


def test_the_replacement_card_is_drawn_only_when_the_mandatory_action_starts():
    held = {0: [("oracle", (0, 0)), ("farm", (0, 1))]}
    s, events = seat_0_starts_a_turn_on("canyon", settlements={0: [(5, 5)]}, held=held)
    assert s.card == "canyon" and types(events)[-1] == "terrain_card_revealed"
    offered = RULESET.legal_commands(s, 0)
    assert {"type": "draw_terrain_card"} in offered
    assert not [c for c in offered if c["type"] == "build" or c.get("tile") == "oracle"]
    farm_first, events = play(s, use("farm", (5, 6)))
    # Nothing else is open before the mandatory action: its new card comes by itself.
    assert types(events)[-2:] == ["terrain_card_removed", "terrain_card_revealed"]
    assert farm_first.card == "grass" and not tile_uses(farm_first, "oracle")
    s, events = play(s, {"type": "draw_terrain_card"})  # or the mandatory action first
    assert types(events) == ["terrain_card_removed", "terrain_card_revealed"]
    assert s.card == "grass" and s.removed == ["canyon"] and not tile_uses(s, "oracle")
    assert tile_uses(s, "farm")
    assert refused(s, {"type": "draw_terrain_card"}) == "terrain_not_exhausted"


def test_a_tile_freeing_a_hex_of_the_cards_terrain_first_keeps_the_card_but_not_the_oracle():
    # Decision: the card is replaced only when the mandatory action starts, so a Paddock
    # used first that frees a hex of its terrain keeps the card; Oracle stays barred.
    s, _ = seat_0_starts_a_turn_on(
        "canyon",
        letters={(5, 5): "C"},
        settlements={0: [(5, 5)]},
        held={0: [("oracle", (0, 0)), ("paddock", (0, 1))]},
    )
    assert s.card == "canyon" and {"type": "draw_terrain_card"} in RULESET.legal_commands(s, 0)
    s, _ = play(s, use("paddock", (5, 7), (5, 5)))
    assert builds(s) == {(5, 5)} and not tile_uses(s, "oracle")
    assert {"type": "draw_terrain_card"} not in RULESET.legal_commands(s, 0)
    s, events = play(s, build(5, 5))  # the last canyon hex: now the card is replaced
    assert types(events)[-2:] == ["terrain_card_removed", "terrain_card_revealed"]
    assert s.card == "grass" and s.placed == 1


def test_designer_rule_lets_the_remaining_settlements_go_on_any_terrain():
    s = position({}, {(2, 2): "G"}, fill="C", card="grass", designer_no_terrain=True)
    s, events = play(s, build(2, 2))
    assert types(events) == ["settlement_built"] and s.card == "grass"
    assert builds(s) == {(2, 1), (2, 3), (1, 1), (1, 2), (3, 1), (3, 2)}
