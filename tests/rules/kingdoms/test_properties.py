"""Property tests over random legal games (all player counts and option mixes)."""

from __future__ import annotations

import json
import random
import time
from collections.abc import Iterator
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from games.rules.base import Event, IllegalCommand
from games.rules.kingdoms.play import COMMAND_TYPES
from games.rules.kingdoms.tiles import ALL_TILES
from tests.rules.kingdoms.helpers import R, json_round_trip, string_values

OPTIONS = st.fixed_dictionaries(
    {
        "wizard": st.booleans(),
        "last_castle": st.booleans(),
        "no_luck": st.booleans(),
        "score_as_you_go": st.booleans(),
    }
)
GAMES = {
    "seed": st.integers(0, 2**32),
    "players": st.integers(2, 4),
    "options": OPTIONS,
}


def walk(seed: int, players: int, options: dict[str, Any]) -> Iterator[tuple[Any, int, Any, list]]:
    """Play a random legal game: yields (state before, seat, command, new events)."""
    rng = random.Random(seed)
    events = R.setup(options, players, rng)
    state = R.fold(events)
    yield None, -1, None, events
    while R.outcome(state) is None:
        (seat,) = R.to_act(state)
        command = rng.choice(R.legal_commands(state, seat))
        new = R.decide(state, seat, command, rng)
        before = R.copy_state(state)
        state = R.fold(new, state)
        yield before, seat, command, new


def final_state(seed: int, players: int, options: dict[str, Any]) -> tuple[Any, list[Event]]:
    events: list[Event] = []
    for _, _, _, new in walk(seed, players, options):
        events += new
    return R.fold(events), events


@settings(max_examples=25, deadline=None)
@given(**GAMES)
def test_random_legal_games_end_with_a_valid_outcome(seed, players, options):
    state, events = final_state(seed, players, options)
    outcome = R.outcome(state)
    assert outcome is not None and R.to_act(state) == set()
    assert outcome.scores == dict(enumerate(state.gold))
    assert sorted(s for group in outcome.ranking for s in group) == list(range(players))
    tops = [outcome.scores[group[0]] for group in outcome.ranking]
    assert tops == sorted(tops, reverse=True) and len(set(tops)) == len(tops)
    assert outcome.winners == [s for s in range(players) if state.gold[s] == max(state.gold)]
    for parts in outcome.breakdown.values():
        assert (
            parts["start"] + sum(v for k, v in parts.items() if k.startswith("epoch_"))
            == (parts["gold"])
        )
    assert events[-1].type == "game_finished"
    if not options["last_castle"]:
        assert state.epoch == 3


@settings(max_examples=15, deadline=None)
@given(**GAMES)
def test_turns_go_clockwise_and_standard_epochs_fill_all_thirty_spaces(seed, players, options):
    _, events = final_state(seed, players, options)
    expected = placed = None
    for event in events:
        if event.type == "epoch_started":
            expected, placed = event.public["start_player"], 0
        elif event.type in ("castle_placed", "tile_placed", "starting_tile_placed", "turn_passed"):
            assert event.public["seat"] == expected
            expected = (expected + 1) % players
            placed += event.type != "turn_passed"
        elif event.type == "tile_drawn":
            assert event.public["seat"] == expected
        elif event.type == "epoch_scored" and not options["last_castle"]:
            assert placed == 30


def _json_event(event: Event) -> Event:
    """An event as a JSON store would return it (tuples to lists, seat keys to str)."""
    data = json_round_trip({"public": event.public, "private": event.private})
    return Event(event.type, data["public"], data["private"])


@settings(max_examples=15, deadline=None)
@given(**GAMES)
def test_replaying_the_events_rebuilds_the_state(seed, players, options):
    events: list[Event] = []
    state = None
    for _, _, _, new in walk(seed, players, options):
        events += new
        state = R.fold(new, state)
    assert R.dump(R.fold(events)) == R.dump(state)
    assert R.dump(R.fold(_json_event(e) for e in events)) == R.dump(state)


@settings(max_examples=15, deadline=None)
@given(**GAMES)
def test_dump_and_load_round_trip_through_json(seed, players, options):
    for step, (before, _, _, _) in enumerate(walk(seed, players, options)):
        if before is None or step % 7:
            continue
        loaded = R.load(json_round_trip(R.dump(before)))
        assert R.dump(loaded) == R.dump(before)
        for seat in [*range(players), None]:
            assert R.view(loaded, seat) == R.view(before, seat)
            if seat is not None:
                assert R.legal_commands(loaded, seat) == R.legal_commands(before, seat)
        assert R.outcome(loaded) == R.outcome(before)
        assert R.to_act(loaded) == R.to_act(before)


def _canonical(command: Any) -> str:
    # Python's == says True == 1; JSON does not, and neither does decide.
    return json.dumps(command, sort_keys=True, default=repr)


def _mutations(command: dict, rng: random.Random) -> list[Any]:
    cell = [rng.randint(-1, 6), rng.randint(-1, 7)]
    return [
        {**command, "space": cell},
        {**command, "space": tuple(cell[:2])},
        {**command, "space": rng.choice(["x", [0], [0, 0, 0], [1.0, 2], None, {"r": 1}])},
        {**command, "rank": rng.choice([0, 1, 2, 3, 4, 5, "1", None, True, 2.0])},
        {**command, "tile": rng.choice([*ALL_TILES, "x", 5, None])},
        {**command, "extra": 1},
        {k: v for k, v in command.items() if k != rng.choice(["space", "rank", "tile"])},
        {**command, "type": rng.choice([*COMMAND_TYPES, "nope", None, 3])},
        {"type": "place_castle", "rank": rng.randint(1, 4), "space": cell},
        rng.choice([None, [], "pass", 7, {"type": None}, {"type": "pass", "space": "x"}]),
    ]


@settings(max_examples=12, deadline=None)
@given(**GAMES)
def test_decide_accepts_exactly_the_legal_commands(seed, players, options):
    rng = random.Random(seed ^ 0x5EED)
    for before, seat, _, _ in walk(seed, players, options):
        if before is None:
            continue
        legal = R.legal_commands(before, seat)
        canonical = {_canonical(c) for c in legal}
        for command in rng.sample(legal, min(4, len(legal))):
            assert R.decide(before, seat, command, random.Random(0))
        for command in _mutations(rng.choice(legal), rng):
            if _canonical(command) in canonical:
                assert R.decide(before, seat, command, random.Random(0))
            else:
                try:
                    R.decide(before, seat, command, random.Random(0))
                except IllegalCommand:
                    pass
                else:
                    raise AssertionError(f"accepted an illegal command: {command}")
        for other in range(players):
            if other != seat:
                assert R.legal_commands(before, other) == []
                try:
                    R.decide(before, other, legal[0], random.Random(0))
                except IllegalCommand as exc:
                    assert exc.code == "not_your_turn"
                else:
                    raise AssertionError("a seat acted out of turn")


_REVEALS = ("tile_drawn", "tile_placed", "starting_tile_placed")


@settings(max_examples=15, deadline=None)
@given(**GAMES)
def test_no_view_or_redacted_event_shows_another_seats_secrets(seed, players, options):
    state = None
    public: set[str] = set()  # tile ids face up (or drawn) this epoch
    for _, _, _, new in walk(seed, players, options):
        for event in new:
            state = R.evolve(state, event)
            if event.type == "epoch_started":
                public = set(event.public.get("face_up_supply", []))
            elif event.type in _REVEALS:
                public.add(event.public["tile"])
            for seat in [*range(players), None]:
                own = {state.starting[seat]} if seat is not None else set()
                # Any tile id reaching a viewer is face up this epoch or its own.
                assert string_values(event.seen_by(seat)) & set(ALL_TILES) <= public | own
                assert string_values(R.view(state, seat)) & set(ALL_TILES) <= public | own
                secrets = set(state.supply) - public if not options["no_luck"] else set()
                secrets |= {t for s, t in enumerate(state.starting) if s != seat and t}
                assert not string_values(event.seen_by(seat)) & secrets
                assert not string_values(R.view(state, seat)) & secrets


def test_a_random_four_player_game_takes_milliseconds():
    # fold + legal_commands + decide for a whole game: ~8 ms here; generous for busy CI.
    started = time.perf_counter()
    for seed in range(5):
        final_state(
            seed,
            4,
            {"wizard": True, "last_castle": False, "no_luck": False, "score_as_you_go": False},
        )
    assert (time.perf_counter() - started) / 5 < 0.15


@settings(max_examples=10, deadline=None)
@given(**GAMES)
def test_a_copy_holds_every_field_and_shares_nothing_mutable(seed, players, options):
    """The copy is spelt out field by field for the search's speed: it must keep up with
    the state's fields, and changing the copy must leave the original as it was."""
    for before, _, _, _ in walk(seed, players, options):
        if before is None:
            continue
        copy = R.copy_state(before)
        assert R.dump(copy) == R.dump(before)
        for name in R.dump(before):
            value = getattr(before, name)
            if isinstance(value, (list, dict)):
                assert getattr(copy, name) is not value, name
                for a, b in zip(value, getattr(copy, name), strict=True):
                    assert not isinstance(a, (list, dict)) or a is not b, name
