"""The Kingdom Builder bots."""

from __future__ import annotations

import random

import pytest

from bots.search import kingdom_builder as search
from bots.search.budget import thinking_budget
from bots.strategies import get_strategy, random_legal
from bots.strategies.kingdom_builder import FIXED, MOVE_THRESHOLD, Judge, scored_commands
from games.rules import get_ruleset
from games.rules.kingdom_builder.state import CHOOSE_TERRAIN
from tests.rules.kingdom_builder.helpers import build, play, position, settled, use, warrior
from tests.rules.kingdom_builder.helpers import wagon as put_piece

RULESET = get_ruleset("kingdom-builder")
GREEDY = get_strategy("kingdom-builder", "medium")
EASY = get_strategy("kingdom-builder", "easy")


def apply(s, seat, command, rng):
    for event in RULESET.decide(s, seat, command, rng):
        s = RULESET.evolve(s, event)
    return s


def test_greedy_is_registered_as_medium_and_easy_stays_random():
    assert GREEDY.__name__ == "greedy"
    assert get_strategy("kingdom-builder", "easy") is random_legal


def test_greedy_always_returns_a_legal_command():
    for seed, draw in enumerate(["standard", "draft", "hand", "choose", "sceadeau"] * 2):
        rng = random.Random(seed)
        players = 2 + seed % 3
        s = RULESET.fold(RULESET.setup({"terrain_draw": draw}, players, rng))
        while not s.finished:
            seat = s.active
            if rng.random() < 0.5:
                command = GREEDY(RULESET, s, seat, rng)
                assert command in RULESET.legal_commands(s, seat)
            else:
                command = random_legal(RULESET, s, seat, rng)
            s = apply(s, seat, command, rng)


def test_greedy_decides_only_from_what_its_seat_may_know():
    rng = random.Random(4)
    s = RULESET.fold(RULESET.setup({"terrain_draw": "hand"}, 3, rng))
    for _ in range(40):
        seat = s.active
        other_world = RULESET.determinize(s, seat, random.Random(rng.random()))
        mine = GREEDY(RULESET, s, seat, random.Random(9))
        assert GREEDY(RULESET, other_world, seat, random.Random(9)) == mine
        s = apply(s, seat, mine, rng)


def test_greedy_beats_random_in_most_two_player_games():
    wins = 0
    for game in range(20):
        rng = random.Random(1000 + game)
        s = RULESET.fold(RULESET.setup({}, 2, rng))
        greedy_seat = game % 2
        while not s.finished:
            seat = s.active
            bot = GREEDY if seat == greedy_seat else random_legal
            s = apply(s, seat, bot(RULESET, s, seat, rng), rng)
        wins += RULESET.outcome(s).ranking[0] == [greedy_seat]
    assert wins >= 15


# ---- with the Nomads and Crossroads expansions ---------------------------------------------------
EXPANSIONS = {"nomads": True, "crossroads": True}
EXPANSION_COMMANDS = {
    "use_nomad_tile",
    "move_settlement",
    "remove_settlement",
    "place_wall",
    "finish_action",
    "take_back_piece",
}
EXPANSION_TILES = {
    "quarry",
    "caravan",
    "village",
    "garden",
    "foresters_lodge",
    "monastery",
    "barracks",
    "wagon",
    "lighthouse",
}


def _kind(command: dict) -> str:
    """A command's type, with the tile for tile commands (``use_tile:wagon``)."""
    tile = command.get("tile")
    return f"{command['type']}:{tile}" if tile else command["type"]


def test_greedy_and_easy_stay_legal_and_pick_every_expansion_command_in_seeded_games():
    offered: set[str] = set()
    chosen: set[str] = set()
    for seed, draw in enumerate(["standard", "draft", "hand", "choose", "sceadeau"] * 2):
        rng = random.Random(seed)
        players = 2 + seed % 4
        options = {**EXPANSIONS, "terrain_draw": draw, "crossroads_pieces_score": seed % 2 == 0}
        s = RULESET.fold(RULESET.setup(options, players, rng))
        while not s.finished:
            seat = s.active
            legal = RULESET.legal_commands(s, seat)
            bot = GREEDY if rng.random() < 0.6 else EASY
            command = bot(RULESET, s, seat, rng)
            assert command in legal
            offered |= {_kind(c) for c in legal}
            chosen.add(_kind(command))
            s = apply(s, seat, command, rng)
    types_offered = {kind.split(":")[0] for kind in offered}
    types_chosen = {kind.split(":")[0] for kind in chosen}
    assert types_offered >= EXPANSION_COMMANDS and types_chosen >= EXPANSION_COMMANDS
    assert {f"use_tile:{t}" for t in EXPANSION_TILES} <= offered
    # Whatever these games made reachable, one of the two bots chose at least once.
    assert {k for k in offered if k.startswith(("use_tile", "use_nomad_tile"))} <= chosen


# ---- constructed positions: each expansion command open, seat 0 to act ------------------------
def _open(
    settlements: dict | None = None,
    held: tuple[str, ...] = (),
    nomad: tuple[str, ...] = (),
    placed: int = 3,
    **kwargs,
):
    """Seat 0's turn with both expansions; by default its mandatory action is done, so the
    tiles compete with ending the turn only."""
    s = position(
        settlements or {0: [(5, 5)], 1: [(12, 12)]},
        held={0: [(kind, (0, i)) for i, kind in enumerate(held)]},
        nomad_held={0: [(kind, (19, i)) for i, kind in enumerate(nomad)]},
        **EXPANSIONS,
        **kwargs,
    )
    s.placed = placed
    return s


def _then(s, *commands):
    for command in commands:
        s, _ = play(s, command)
    return s


def _choosing_cards():
    """A Crossroads extra card: seat 0 picks one of two before its turn."""
    s = _open(
        {0: [(5, 4)], 1: [(12, 12)]},
        letters={(5, 6): "D", (15, 15): "T", (15, 16): "T"},
        locations={(4, 7): "farm"},  # only the desert hex reaches it
        placed=0,
    )
    s.phase, s.card, s.hands[0] = CHOOSE_TERRAIN, None, ["forest", "desert"]
    return s


def _warriors_out():
    s = _open(held=("barracks",))
    return warrior(warrior(s, 0, (8, 8)), 0, (15, 2))  # both of seat 0's warriors


def _wagon_out():
    # In the corner, with water around: the wagon can only step to (0, 1).
    s = _open(held=("wagon",), letters={(1, 0): "W", (1, 1): "W", (0, 2): "W"})
    return put_piece(s, 0, (0, 0))


def _ship_out():
    s = _open(held=("lighthouse",), letters={(5, 6): "W", (5, 7): "W"})
    return put_piece(s, 0, (5, 6), "ship")


def _resettling(letters: dict, settlements: dict | None = None):
    s = _open(settlements or {0: [(5, 4)], 1: [(12, 12)]}, nomad=("resettlement",), letters=letters)
    return _then(s, {"type": "use_nomad_tile", "tile": "resettlement"})


USE_NOMAD = "use_nomad_tile"
# name -> (position, the command kind it opens, whether the greedy bot must pick it)
OPEN_POSITIONS = {
    "quarry": (lambda: _open(held=("quarry",)), "use_tile:quarry", True),
    "second_wall": (
        lambda: _then(_open(held=("quarry",)), use("quarry", (5, 6))),
        "place_wall",
        True,
    ),
    "caravan": (
        lambda: _open(held=("caravan",), letters={(5, 9): "W"}),  # stops next to water
        "use_tile:caravan",
        True,
    ),
    "village": (
        lambda: _open({0: [(5, 4), (4, 5), (4, 6)], 1: [(12, 12)]}, held=("village",)),
        "use_tile:village",
        True,
    ),
    "garden": (lambda: _open(held=("garden",), letters={(5, 6): "F"}), "use_tile:garden", True),
    "foresters_lodge": (
        lambda: _open(held=("foresters_lodge",), letters={(5, 6): "T"}),
        "use_tile:foresters_lodge",
        True,
    ),
    "monastery": (
        lambda: _open(held=("monastery",), letters={(5, 6): "C"}),
        "use_tile:monastery",
        True,
    ),
    "outpost": (lambda: _open(held=("outpost",)), "use_tile:outpost", True),
    "city_hall": (lambda: _open(held=("city_hall",)), "use_tile:city_hall", True),
    "warrior": (lambda: _open(held=("barracks",)), "use_tile:barracks", True),
    "wagon": (lambda: _open(held=("wagon",)), "use_tile:wagon", True),
    "ship": (
        lambda: _open(held=("lighthouse",), letters={(5, 6): "W"}),
        "use_tile:lighthouse",
        True,
    ),
    # Pieces already out: moving or taking them back is all that is left, and the greedy
    # bot leaves them where they are (the easy bot does not).
    "take_back_warrior": (_warriors_out, "take_back_piece:barracks", False),
    "move_wagon": (_wagon_out, "use_tile:wagon", False),
    "take_back_wagon": (_wagon_out, "take_back_piece:wagon", False),
    "move_ship": (_ship_out, "use_tile:lighthouse", False),
    "take_back_ship": (_ship_out, "take_back_piece:lighthouse", False),
    "donation": (lambda: _open(nomad=("donation_grass",)), f"{USE_NOMAD}:donation_grass", True),
    "donation_build": (
        lambda: _then(
            _open(nomad=("donation_grass",)), {"type": USE_NOMAD, "tile": "donation_grass"}
        ),
        "build",
        True,
    ),
    "resettlement": (lambda: _open(nomad=("resettlement",)), f"{USE_NOMAD}:resettlement", True),
    "resettlement_step": (lambda: _resettling({(5, 6): "W"}), "move_settlement", True),
    "resettlement_stop": (lambda: _resettling({(5, 5): "W"}), "finish_action", True),
    "sword": (lambda: _open(nomad=("sword",)), f"{USE_NOMAD}:sword", True),
    "sword_victim": (
        lambda: _then(_open(nomad=("sword",)), {"type": USE_NOMAD, "tile": "sword"}),
        "remove_settlement",
        True,
    ),
    "nomad_outpost": (
        lambda: _open(nomad=("nomad_outpost",), placed=0),
        f"{USE_NOMAD}:nomad_outpost",
        False,
    ),
    "treasure": (
        lambda: _open(placed=0, nomad_spaces={(5, 7): "treasure"}),
        "build",
        True,
    ),
    "crossroads_card": (_choosing_cards, "play_terrain_card", True),
}


@pytest.mark.parametrize("name", sorted(OPEN_POSITIONS))
def test_both_bots_play_legal_commands_where_each_expansion_command_is_open(name):
    make, wanted, greedy_picks = OPEN_POSITIONS[name]
    s = make()
    legal = RULESET.legal_commands(s, 0)
    assert wanted in {_kind(c) for c in legal}  # the position really opens it
    by_greedy = [GREEDY(RULESET, s, 0, random.Random(seed)) for seed in range(12)]
    by_easy = [EASY(RULESET, s, 0, random.Random(seed)) for seed in range(60)]
    assert all(command in legal for command in by_greedy + by_easy)
    if greedy_picks:
        assert {_kind(c) for c in by_greedy} == {wanted}
    assert wanted in {_kind(c) for c in by_easy}
    play(s, by_greedy[0])  # and the engine carries it out


def test_greedy_takes_a_treasure_and_plays_the_better_crossroads_card():
    s = _open(placed=0, nomad_spaces={(5, 7): "treasure"})
    # (5, 4) and (5, 6) add as much to Knights; only (5, 6) touches the Treasure.
    choices = {tuple(GREEDY(RULESET, s, 0, random.Random(seed))["hex"]) for seed in range(8)}
    assert choices == {(5, 6)}
    s, _ = play(s, build(5, 6))
    assert s.gold[0] == 3
    command = GREEDY(RULESET, _choosing_cards(), 0, random.Random(0))
    assert command == {"type": "play_terrain_card", "terrain": "desert"}  # takes a farm tile


def test_greedy_leaves_pieces_alone_when_nothing_is_gained():
    for make in (_warriors_out, _wagon_out, _ship_out):
        assert GREEDY(RULESET, make(), 0, random.Random(0)) == {"type": "end_turn"}


# ---- Resettlement: the greedy bot weighs each step ----------------------------------------------
def test_greedy_resettlement_steps_never_lower_its_card_score():
    # One step takes (5, 4) next to the water, one takes (10, 10) next to the mountain.
    s = _resettling({(5, 6): "W", (10, 12): "M"}, {0: [(5, 4), (10, 10)], 1: [(15, 15)]})
    s.cards = ["fishermen", "miners", "knights"]
    start = Judge(s, 0).base
    steps = []
    while s.action is not None:
        command = GREEDY(RULESET, s, 0, random.Random(len(steps)))
        before = Judge(s, 0).base
        s, _ = play(s, command)
        assert Judge(s, 0).base >= before  # no step lowers the cards' gold
        steps.append(command["type"])
    assert steps == ["move_settlement", "move_settlement", "finish_action"]
    assert Judge(s, 0).base == start + 2 and settled(s, 0) == {(5, 5), (10, 11)}


def test_greedy_values_a_resettlement_step_by_its_card_score():
    s = _resettling({(5, 6): "W"})
    scored = {
        (tuple(c["from"]), tuple(c["to"])): value
        for value, c in scored_commands(RULESET, s, 0)
        if c["type"] == "move_settlement"
    }
    assert max(scored, key=scored.__getitem__) == ((5, 4), (5, 5))
    assert scored[((5, 4), (5, 5))] == pytest.approx(1 - MOVE_THRESHOLD)  # Fishermen +1
    assert all(v < 0 for move, v in scored.items() if move != ((5, 4), (5, 5)))


def test_greedy_values_a_wagon_move_as_a_piece_not_as_a_new_settlement():
    # Next to the farm the wagon takes no tile: the move must not look like a settlement's.
    s = put_piece(_open(held=("wagon",), locations={(12, 5): "farm"}), 0, (12, 2))
    moves = {
        tuple(c["to"]): value
        for value, c in scored_commands(RULESET, s, 0)
        if c["type"] == "use_tile" and "from" in c
    }
    assert moves[(12, 4)] == FIXED["move_piece"]
    assert GREEDY(RULESET, s, 0, random.Random(0)) == {"type": "end_turn"}


def test_greedy_chooses_the_sword_victims_settlement_from_public_facts():
    s = position(
        {0: [(5, 5)], 1: [(10, 9), (14, 14)]},
        locations={(10, 10): "farm"},
        held={1: [("farm", (10, 10))]},
        nomad_held={0: [("sword", (9, 9))]},
        nomads=True,
    )
    s, _ = play(s, {"type": "use_nomad_tile", "tile": "sword"})
    command = GREEDY(RULESET, s, 0, random.Random(1))
    assert command == {"type": "remove_settlement", "hex": [10, 9]}  # it holds the farm


def test_greedy_decides_only_from_what_its_seat_may_know_with_the_expansions():
    rng = random.Random(6)
    s = RULESET.fold(RULESET.setup({**EXPANSIONS, "terrain_draw": "hand"}, 4, rng))
    for _ in range(60):
        if s.finished:
            break
        seat = s.active
        other_world = RULESET.determinize(s, seat, random.Random(rng.random()))
        mine = GREEDY(RULESET, s, seat, random.Random(9))
        assert GREEDY(RULESET, other_world, seat, random.Random(9)) == mine
        s = apply(s, seat, mine, rng)


def test_greedy_beats_random_in_most_two_player_expansion_games():
    wins = 0
    for game in range(20):
        rng = random.Random(2000 + game)
        s = RULESET.fold(RULESET.setup(EXPANSIONS, 2, rng))
        greedy_seat = game % 2
        while not s.finished:
            seat = s.active
            bot = GREEDY if seat == greedy_seat else random_legal
            s = apply(s, seat, bot(RULESET, s, seat, rng), rng)
        wins += RULESET.outcome(s).ranking[0] == [greedy_seat]
    assert wins >= 15


def _medium_game_until(supply_left: int, seed: int):
    """A two-player medium game played until a seat has ``supply_left`` settlements left."""
    ruleset = get_ruleset("kingdom-builder")
    medium = get_strategy("kingdom-builder", "medium")
    rng = random.Random(seed)
    state = ruleset.fold(ruleset.setup({}, 2, rng))
    while min(state.supply) > supply_left and ruleset.outcome(state) is None:
        (seat,) = ruleset.to_act(state)
        state = ruleset.fold(
            ruleset.decide(state, seat, medium(ruleset, state, seat, rng), rng), state
        )
    return ruleset, state


def test_the_experts_playouts_run_to_the_real_end_only_in_the_last_turns():
    ruleset, early = _medium_game_until(search.ENDGAME_SETTLEMENTS + 10, seed=4)
    (seat,) = ruleset.to_act(early)
    # Far from the end: the model values the position, as hard's playout does.
    assert search.expert_playout(
        ruleset, ruleset.copy_state(early), seat, 2, random.Random(1)
    ) == search.playout(ruleset, ruleset.copy_state(early), seat, 2, random.Random(1))
    ruleset, late = _medium_game_until(search.ENDGAME_SETTLEMENTS, seed=4)
    (seat,) = ruleset.to_act(late)
    rewards = search.expert_playout(ruleset, ruleset.copy_state(late), seat, 2, random.Random(1))
    # Near it: the game's own result, a win, a loss or a shared win.
    assert sorted(rewards) in ([0.0, 1.0], [0.5, 0.5])


def test_the_expert_plays_legal_commands_within_a_playout_budget():
    expert = get_strategy("kingdom-builder", "expert")
    ruleset, late = _medium_game_until(6, seed=9)
    (seat,) = ruleset.to_act(late)
    with thinking_budget(seconds=None, playouts=30):
        command = expert(ruleset, late, seat, random.Random(2))
    assert command in ruleset.legal_commands(late, seat)
