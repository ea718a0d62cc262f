"""Property tests over whole random games with both expansions: all 16 sections in the
pool, up to 5 players, every terrain draw variant."""

from __future__ import annotations

import json
import random

from hypothesis import given, settings
from hypothesis import strategies as st

from games.rules.base import Event, IllegalCommand
from tests.rules.kingdom_builder.helpers import RULESET
from tests.rules.kingdom_builder.test_properties import DRAWS, check_snapshot, mutations


def options_for(seed: int, draw: str) -> dict:
    return {
        "nomads": True,
        "crossroads": True,
        "crossroads_pieces_score": seed % 3 == 0,
        "terrain_draw": draw,
        "designer_no_terrain": seed % 2 == 1,
    }


def play_random_game(seed: int, players: int, draw: str, check_every: int = 12):
    rng = random.Random(seed)
    events = RULESET.setup(options_for(seed, draw), players, rng)
    s = RULESET.fold(events)
    step = 0
    while RULESET.to_act(s):
        (seat,) = RULESET.to_act(s)
        legal = RULESET.legal_commands(s, seat)
        assert legal, "the seat to act always has a command"
        assert all(
            RULESET.legal_commands(s, other) == [] for other in range(players) if other != seat
        )
        if step % check_every == 0:
            check_snapshot(s)
            for command in rng.sample(legal, min(3, len(legal))):
                RULESET.decide(s, seat, command, random.Random(step))  # accepted
            for junk in mutations(rng.choice(legal), rng):
                try:
                    RULESET.decide(s, seat, junk, random.Random(step))
                except IllegalCommand:
                    continue
                assert junk in legal, f"accepted an illegal command {junk!r}"
        before = RULESET.dump(s)
        command = rng.choice(legal)
        new = RULESET.decide(s, seat, command, rng)
        assert RULESET.dump(s) == before, "decide must not mutate the state"
        events += new
        for event in new:
            s = RULESET.evolve(s, event)
        step += 1
    return s, events


@settings(max_examples=10, deadline=None)
@given(seed=st.integers(0, 10**6), players=st.integers(2, 5), draw=st.sampled_from(DRAWS))
def test_random_expansion_games_end_with_equal_turns_and_replay_to_the_same_state(
    seed, players, draw
):
    s, events = play_random_game(seed, players, draw)
    outcome = RULESET.outcome(s)
    assert outcome is not None and set(outcome.scores) == set(range(players))
    assert sorted(x for group in outcome.ranking for x in group) == list(range(players))
    assert len(set(s.turns)) == 1, "every player made the same number of turns"
    assert s.end_triggered
    assert 0 <= s.walls_left <= 25 and len(s.walls) == 25 - s.walls_left
    assert all(len(w) <= 2 for w in s.warriors)
    assert RULESET.dump(RULESET.fold(events)) == RULESET.dump(s)
    stored = [  # as the service stores them: JSON, private keys back to int seats
        Event(
            e.type,
            json.loads(json.dumps(e.public)),
            {int(k): v for k, v in json.loads(json.dumps(e.private)).items()},
        )
        for e in events
    ]
    assert RULESET.dump(RULESET.fold(stored)) == RULESET.dump(s)
    check_snapshot(s)
    view = RULESET.view(s, None)
    assert view["finished"] and view["to_act"] == []
    assert {int(k): v for k, v in view["outcome"]["scores"].items()} == outcome.scores


@settings(max_examples=8, deadline=None)
@given(seed=st.integers(0, 10**6), players=st.integers(2, 5), draw=st.sampled_from(DRAWS))
def test_no_seat_sees_another_seats_cards_with_the_expansions(seed, players, draw):
    rng = random.Random(seed)
    events = RULESET.setup(options_for(seed, draw), players, rng)
    s = RULESET.fold(events)
    for _ in range(80):
        if s.finished:
            break
        for seat in range(players):
            other = RULESET.determinize(s, seat, random.Random(rng.random()))
            assert RULESET.view(other, seat) == RULESET.view(s, seat)
            assert RULESET.view(s, seat)["hand"] == s.hands[seat]
        spectator = RULESET.determinize(s, None, random.Random(1))
        assert RULESET.view(spectator, None) == RULESET.view(s, None)
        command = rng.choice(RULESET.legal_commands(s, s.active))
        new = RULESET.decide(s, s.active, command, rng)
        events += new
        for event in new:
            s = RULESET.evolve(s, event)
    for event in events:
        secrets = {k for part in event.private.values() for k in part}
        assert not secrets & set(event.public), f"{event.type} repeats a secret in public"
        for owner in event.private:
            assert owner == -1 or owner == event.public.get("seat") or event.type == "game_set_up"
