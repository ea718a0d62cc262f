"""Random legal games: they end, rank every seat, conserve the 84 cards, replay exactly,
and never show a seat another seat's hand."""

import json
import random
from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as st

from games.rules.base import IllegalCommand
from games.rules.kingdom_cards import RULESET
from games.rules.kingdom_cards.cards import DECK
from games.rules.kingdom_cards.state import KINGDOM_CHANGES_PER_TURN
from tests.rules.kingdom_cards.positions import all_cards

tables = st.tuples(
    st.integers(0, 2**32 - 1),  # seed
    st.integers(2, 5),  # players
    st.booleans(),  # auto_complete
)


def options_for(players, auto):
    return {"allow_two_players": players == 2, "auto_complete": auto}


def random_game(seed, players, auto, on_step=None):
    """Play a random legal game: a random seat of ``to_act``, a random legal command."""
    rng = random.Random(seed)
    events = RULESET.setup(options_for(players, auto), players, rng)
    state = RULESET.fold(events)
    steps = 0
    while not state.finished:
        seat = rng.choice(sorted(RULESET.to_act(state)))
        command = rng.choice(RULESET.legal_commands(state, seat))
        new = RULESET.decide(state, seat, command, rng)
        for event in new:
            state = RULESET.evolve(state, event)
        events += new
        steps += 1
        if on_step is not None:
            on_step(state, seat, new, rng)
    return state, events, steps


def strings(value):
    """Every string inside a JSON-ready value."""
    if isinstance(value, str):
        return {value}
    if isinstance(value, dict):
        return {s for v in value.values() for s in strings(v)}
    if isinstance(value, list | tuple):
        return {s for v in value for s in strings(v)}
    return set()


@given(tables)
@settings(max_examples=20, deadline=None)
def test_random_games_end_in_bounded_steps_with_a_valid_ranking(table):
    seed, players, auto = table
    state, events, steps = random_game(seed, players, auto)
    turns = 84 - 9 * players + 1
    assert steps <= turns * (players * (KINGDOM_CHANGES_PER_TURN + 1) + 4)
    outcome = RULESET.outcome(state)
    ranked = [s for group in outcome.ranking for s in group]
    assert sorted(ranked) == list(range(players))
    assert outcome.winners
    assert RULESET.to_act(state) == set()
    if state.end_reason == "kingdom_completed":
        assert outcome.winners == state.completed
        assert all(all(g is not None for g in state.groups[s]) for s in state.completed)
    else:
        assert state.end_reason == "source_exhausted" and not state.source
        # Every player had exactly one last turn.
        ended = Counter(e.public["seat"] for e in events if e.type == "last_turn_ended")
        assert ended == Counter(range(players))
    # Turns pass clockwise from seat 0, one card drawn each.
    drawn = [e.public for e in events if e.type == "card_drawn"]
    assert [d["seat"] for d in drawn] == [t % players for t in range(len(drawn))]
    assert [d["turn"] for d in drawn] == list(range(1, len(drawn) + 1))
    json.dumps(RULESET.view(state, None))


@given(tables)
@settings(max_examples=15, deadline=None)
def test_the_84_cards_are_conserved_at_every_step(table):
    def check(state, seat, new, rng):
        assert sorted(all_cards(state)) == sorted(DECK)

    random_game(*table, on_step=check)


@given(tables)
@settings(max_examples=15, deadline=None)
def test_replaying_the_events_gives_the_state_and_snapshots_round_trip(table):
    state, events, _ = random_game(*table)
    replayed = RULESET.fold(events)
    assert RULESET.dump(replayed) == RULESET.dump(state)
    # Round trip the events through JSON too, as the store does.
    stored = [
        type(e)(e.type, json.loads(json.dumps(e.public)), json.loads(json.dumps(e.private)))
        for e in events
    ]
    stored = [type(e)(e.type, e.public, {int(k): v for k, v in e.private.items()}) for e in stored]
    assert RULESET.dump(RULESET.fold(stored)) == RULESET.dump(state)
    loaded = RULESET.load(json.loads(json.dumps(RULESET.dump(state))))
    assert RULESET.outcome(loaded) == RULESET.outcome(state)
    for seat in [None, *range(state.players)]:
        assert RULESET.view(loaded, seat) == RULESET.view(state, seat)


def candidate_commands(state, seat, rng):
    """A broad sample of commands, legal and not, including junk."""
    hand = state.hands[seat]
    commands = [
        {"type": "give_up"},
        {"type": "keep_kingdom"},
        {"type": "end_last_turn"},
        {"type": "draw"},
        {"type": "bid", "card": "X9z"},
        {"type": "bid", "card": 7},
        {"type": "lay_group", "cards": "R1a"},
        {"type": "return_group", "tier": "1"},
        {"type": "challenge", "seat": None},
        "bid",
    ]
    commands += [{"type": "challenge", "seat": s} for s in range(-1, state.players + 1)]
    commands += [{"type": "return_group", "tier": t} for t in range(0, 5)]
    for card in rng.sample(DECK, 12) + list(hand):
        commands += [
            {"type": "bid", "card": card},
            {"type": "lay_treasure", "card": card},
            {"type": "return_treasure", "card": card},
            {"type": "lay_card", "card": card},
            {"type": "return_card", "card": card},
        ]
    commands += [{"type": "return_card", "card": c} for g in state.groups[seat] if g for c in g]
    for _ in range(6):
        if len(hand) >= 3:
            commands.append({"type": "lay_group", "cards": rng.sample(hand, 3)})
    return commands


@given(tables)
@settings(max_examples=10, deadline=None)
def test_decide_accepts_exactly_the_legal_commands(table):
    def check(state, seat, new, rng):
        if rng.random() > 0.1:
            return
        for s in range(state.players):
            legal = RULESET.legal_commands(state, s)
            for command in legal:
                RULESET.decide(state, s, command, rng)  # must not raise
            for command in candidate_commands(state, s, rng):
                try:
                    RULESET.decide(state, s, command, rng)
                except IllegalCommand:
                    assert command not in legal
                else:
                    assert command in legal, command
            assert bool(legal) == (s in RULESET.to_act(state))

    random_game(*table, on_step=check)


@given(tables)
@settings(max_examples=15, deadline=None)
def test_no_seat_sees_another_seats_hand_or_the_source(table):
    seed, players, auto = table

    def check(state, seat, new, rng):
        for viewer in range(state.players):
            secret = set(state.source)
            secret.update(c for s in range(state.players) if s != viewer for c in state.hands[s])
            assert not strings(RULESET.view(state, viewer)) & secret
            assert not strings([e.seen_by(viewer) for e in new]) & set(state.source)
        assert not strings(RULESET.view(state, None)) & set(state.source)

    state, events, _ = random_game(seed, players, auto, on_step=check)
    dealt = events[0]
    for viewer in range(players):
        others = {c for s in range(players) if s != viewer for c in dealt.private[s]["hand"]}
        seen = strings(dealt.seen_by(viewer))
        assert not seen & others
        assert not seen & set(dealt.private[-1]["source"])
    assert not strings(dealt.seen_by(None)) & set(DECK)
