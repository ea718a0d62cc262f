"""Hidden information stays hidden, for every ruleset.

For random reachable positions, another world is made by hand in which everything a viewer
cannot see is changed (the other seats' hidden cards or tiles are swapped with each other
and with the face-down pile; the pile's order is shuffled) while what the viewer sees is
kept, including the next card or tile a command reveals. In both worlds the viewer must
get exactly the same: its view, the spectator's view, ``to_act``, its own legal commands,
every seat's legal commands of the public kind (those that name no hidden card), and the
events (as the viewer receives them) of the same command, its own or another seat's.

``determinize`` is not used: these perturbations are written here, independently of the
engines, so a leak in an engine's own idea of what is hidden is not copied into the test.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.rules.base import Event, IllegalCommand, Ruleset
from games.rules.kingdom_builder import RULESET as KINGDOM_BUILDER
from games.rules.kingdom_cards import RULESET as KINGDOM_CARDS
from games.rules.kingdom_cards.cards import sort_cards
from games.rules.kingdoms import KINGDOMS


@dataclass(frozen=True)
class Spec:
    ruleset: Ruleset
    options: Callable[[random.Random, int], dict[str, Any]]
    players: tuple[int, int]
    # Changes, in a copy, what ``viewer`` cannot see; the next reveal is kept.
    perturb: Callable[[Any, int, random.Random], Any]
    # Commands whose content is hidden data (a card of one's own hand...).
    private_kinds: frozenset[str]
    # Where the events start to reveal hidden data by the rules (a card laid from the hand,
    # a tile placed from a hand): the index of the first such event, else None.
    reveals: Callable[[int, dict, list[Event]], int | None]


def _swap_hidden(pools: list[list[Any]], rng: random.Random, times: int = 6) -> None:
    """Swap random items between the pools (in place), keeping every pool's size."""
    filled = [p for p in pools if p]
    if not filled:
        return
    for _ in range(times):
        a, b = rng.choice(filled), rng.choice(filled)
        i, j = rng.randrange(len(a)), rng.randrange(len(b))
        a[i], b[j] = b[j], a[i]


# ---- Kingdom Cards: other hands and the source (its top card, the next draw, is kept) ----
def _cards_perturb(state: Any, viewer: int, rng: random.Random) -> Any:
    other = KINGDOM_CARDS.copy_state(state)
    below_top = other.source[:-1]
    hands = [other.hands[s] for s in other.seats if s != viewer]
    _swap_hidden([below_top, *hands], rng)
    rng.shuffle(below_top)
    other.source[:-1] = below_top
    for s in other.seats:
        other.hands[s] = sort_cards(other.hands[s])
    return other


def _first(events: list[Event], test: Callable[[Event], bool]) -> int | None:
    return next((i for i, e in enumerate(events) if test(e)), None)


def _cards_reveals(viewer: int, command: dict, events: list[Event]) -> int | None:
    # auto_complete lays a player's cards from the hand into the kingdom: a public fact.
    return _first(events, lambda e: e.type.startswith("group_") and e.public.get("auto"))


# ---- Kingdoms: other seats' starting tiles and the supply (its top tile is kept) --------
def _kingdoms_options(rng: random.Random, players: int) -> dict[str, Any]:
    return {k: rng.random() < 0.5 for k in ("wizard", "last_castle", "no_luck", "score_as_you_go")}


def _kingdoms_perturb(state: Any, viewer: int, rng: random.Random) -> Any:
    other = KINGDOMS.copy_state(state)
    if other.options["no_luck"]:
        return other  # every tile lies face up
    below_top = other.supply[1:]
    holders = [s for s in other.seats if s != viewer and other.starting[s] is not None]
    starting = [[other.starting[s]] for s in holders]
    _swap_hidden([below_top, *starting], rng)
    rng.shuffle(below_top)
    other.supply[1:] = below_top
    for s, (tile,) in zip(holders, starting, strict=True):
        other.starting[s] = tile
    return other


def _kingdoms_reveals(viewer: int, command: dict, events: list[Event]) -> int | None:
    return _first(events, lambda e: e.type == "starting_tile_placed")


# ---- Kingdom Builder: other hands and the draw pile (its next cards are kept) ---------
def _builder_options(rng: random.Random, players: int) -> dict[str, Any]:
    options: dict[str, Any] = {
        "terrain_draw": rng.choice(["standard", "draft", "hand", "choose", "sceadeau"]),
        "nomads": rng.random() < 0.3,
        "crossroads": rng.random() < 0.3,
    }
    return options


KEEP_ON_TOP = 3  # a command draws at most this many cards (a draw, a refill, an extra card)


def _builder_perturb(state: Any, viewer: int, rng: random.Random) -> Any:
    other = KINGDOM_BUILDER.copy_state(state)
    below = other.draw_pile[KEEP_ON_TOP:]
    hands = [other.hands[s] for s in range(other.players) if s != viewer]
    _swap_hidden([below, *hands], rng)
    rng.shuffle(below)
    other.draw_pile[KEEP_ON_TOP:] = below
    return other


def _builder_reveals(viewer: int, command: dict, events: list[Event]) -> int | None:
    # A card of another seat's hand shown by the rules: played (the standard draw shows it
    # when the turn starts) or discarded face up (Sceadeau's swap, unplayed extra cards).
    return _first(
        events,
        lambda e: e.type in ("terrain_card_revealed", "terrain_card_discarded")
        and e.public.get("source") == "hand"
        and e.public.get("seat") != viewer,
    )


SPECS = {
    "kingdom-cards": Spec(
        KINGDOM_CARDS,
        lambda rng, players: {
            "allow_two_players": players == 2,
            "auto_complete": rng.random() < 0.5,
        },
        (2, 5),
        _cards_perturb,
        frozenset({"bid", "lay_group", "lay_treasure", "lay_card"}),
        _cards_reveals,
    ),
    "kingdoms": Spec(
        KINGDOMS,
        _kingdoms_options,
        (2, 4),
        _kingdoms_perturb,
        frozenset(),
        _kingdoms_reveals,
    ),
    "kingdom-builder": Spec(
        KINGDOM_BUILDER,
        _builder_options,
        (2, 4),
        _builder_perturb,
        frozenset({"play_terrain_card", "choose_terrain", "take_card", "keep_card"}),
        _builder_reveals,
    ),
}


def _random_position(spec: Spec, seed: int, steps: int) -> tuple[Any, random.Random]:
    rng = random.Random(seed)
    players = rng.randint(*spec.players)
    rules = spec.ruleset
    state = rules.fold(rules.setup(spec.options(rng, players), players, rng))
    for _ in range(steps):
        acting = sorted(rules.to_act(state))
        if not acting:
            break
        seat = rng.choice(acting)
        command = rng.choice(rules.legal_commands(state, seat))
        for event in rules.decide(state, seat, command, rng):
            state = rules.evolve(state, event)
    return state, rng


def _outcome(rules: Ruleset, state: Any, seat: int, command: dict, seed: int) -> Any:
    try:
        return rules.decide(state, seat, command, random.Random(seed))
    except IllegalCommand as refused:
        return refused.code


def _received(events: Any, viewer: int) -> Any:
    if isinstance(events, str):
        return events
    return [(e.type, e.seen_by(viewer)) for e in events]


def _public(spec: Spec, commands: list[dict]) -> list[dict]:
    return [c for c in commands if c.get("type") not in spec.private_kinds]


def _same_events(spec: Spec, a: Any, b: Any, viewer: int, seat: int, command: dict) -> None:
    events_a = _outcome(spec.ruleset, a, seat, command, 7)
    events_b = _outcome(spec.ruleset, b, seat, command, 7)
    if not isinstance(events_a, str) and not isinstance(events_b, str):
        cuts = [spec.reveals(viewer, command, events) for events in (events_a, events_b)]
        cut = min((c for c in cuts if c is not None), default=None)
        events_a, events_b = events_a[:cut], events_b[:cut]
    assert _received(events_a, viewer) == _received(events_b, viewer), (seat, command)


@pytest.mark.parametrize("key", sorted(SPECS))
@given(seed=st.integers(0, 2**32 - 1), steps=st.integers(0, 40))
@settings(max_examples=40, deadline=None)
def test_what_a_viewer_receives_does_not_depend_on_what_it_cannot_see(key, seed, steps):
    spec = SPECS[key]
    rules = spec.ruleset
    state, rng = _random_position(spec, seed, steps)
    seats = range(state.players)
    viewer = rng.choice(seats)
    other = spec.perturb(state, viewer, rng)

    assert rules.view(other, viewer) == rules.view(state, viewer)
    assert rules.view(other, None) == rules.view(state, None)
    assert rules.to_act(other) == rules.to_act(state)
    assert rules.legal_commands(other, viewer) == rules.legal_commands(state, viewer)
    for seat in seats:
        public = _public(spec, rules.legal_commands(state, seat))
        assert _public(spec, rules.legal_commands(other, seat)) == public, seat

    # The viewer's own commands (a sample) give the viewer the same events in both worlds.
    own = rules.legal_commands(state, viewer)
    for command in rng.sample(own, min(len(own), 6)):
        _same_events(spec, state, other, viewer, viewer, command)
    # So do other seats' commands that are legal in both worlds.
    for seat in seats:
        if seat == viewer:
            continue
        there = rules.legal_commands(other, seat)
        both = [c for c in rules.legal_commands(state, seat) if c in there]
        for command in rng.sample(both, min(len(both), 4)):
            _same_events(spec, state, other, viewer, seat, command)
