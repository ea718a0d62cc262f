"""The search bots: they decide from their own view only, within their budget."""

from __future__ import annotations

import math
import random
import time

import pytest

from bots.search import expert, kingdom_builder, kingdoms, pimc
from bots.search.budget import Budget, current_budget, thinking_budget
from bots.search.hidden import canonical_world
from bots.search.ismcts import Knowledge, Patience, search
from bots.search.kingdoms import placing_rewards
from bots.strategies import get_strategy, random_legal
from bots.strategies.hard import KNOWLEDGE
from games.rules import get_ruleset
from games.rules.kingdom_cards.cards import sort_cards

GAMES = {
    "kingdoms": ({}, 2),
    "kingdom-builder": ({"terrain_draw": "hand"}, 2),
    "kingdom-cards": ({"allow_two_players": True}, 2),
}


def midgame(game: str, seed: int, moves: int):
    """A position after ``moves`` random commands, and a seat that may act there."""
    options, players = GAMES[game]
    ruleset = get_ruleset(game)
    rng = random.Random(seed)
    state = ruleset.fold(ruleset.setup(options, players, rng))
    for _ in range(moves):
        if ruleset.outcome(state) is not None:
            break
        seat = rng.choice(sorted(ruleset.to_act(state)))
        state = ruleset.fold(
            ruleset.decide(state, seat, random_legal(ruleset, state, seat, rng), rng), state
        )
    seats = sorted(ruleset.to_act(state))
    return ruleset, state, (seats[0] if seats else None)


def other_worlds(ruleset, state, seat):
    """Two states that differ only in what ``seat`` cannot see."""
    one = ruleset.determinize(state, seat, random.Random(1))
    two = ruleset.determinize(state, seat, random.Random(2))
    assert ruleset.view(one, seat) == ruleset.view(two, seat)
    assert ruleset.dump(one) != ruleset.dump(two)  # the secrets did change
    return one, two


@pytest.mark.parametrize("game", sorted(GAMES))
def test_the_canonical_world_forgets_the_other_seats_secrets(game):
    for seed in range(3):
        ruleset, state, seat = midgame(game, seed, moves=6 + 5 * seed)
        one, two = other_worlds(ruleset, state, seat)
        assert ruleset.dump(canonical_world(ruleset, one, seat)) == ruleset.dump(
            canonical_world(ruleset, two, seat)
        )


@pytest.mark.parametrize("level", ["easy", "medium", "hard", "expert"])
@pytest.mark.parametrize("game", sorted(GAMES))
def test_each_level_decides_from_its_own_view_only(game, level):
    bot = get_strategy(game, level)
    with thinking_budget(seconds=None, playouts=30):
        for seed in range(4):
            ruleset, state, seat = midgame(game, seed, moves=3 + 9 * seed)
            one, two = other_worlds(ruleset, state, seat)
            decisions = [bot(ruleset, s, seat, random.Random(7)) for s in (state, one, two)]
            assert decisions[0] == decisions[1] == decisions[2]


# Where each game keeps a seat's secrets and the face-down pool they come from.
SECRETS = {
    "kingdoms": ("starting", "supply"),  # the secret starting tile; the tile supply
    "kingdom-builder": ("hands", "draw_pile"),  # terrain cards in hand; the draw pile
    "kingdom-cards": ("hands", "source"),  # the hand; the source
}


def swapped_by_hand(game, ruleset, state, seat):
    """``state`` with one of another seat's secrets exchanged for a different card or tile
    of the face-down pool, and the pool's order reversed: a change of what ``seat``
    cannot see made directly in the state's data, not by ``determinize``, so a secret
    that ``determinize`` fails to re-deal would change the bot's world. None when no
    other seat holds a secret here."""
    data = ruleset.dump(state)
    secrets, pool_key = SECRETS[game]
    pool = data[pool_key]
    for other, held in enumerate(data[secrets]):
        if other == seat or not held:
            continue
        hand = [held] if isinstance(held, str) else list(held)
        pair = next(
            ((i, j) for i, card in enumerate(hand) for j, tile in enumerate(pool) if tile != card),
            None,
        )
        if pair is None:
            continue
        i, j = pair
        hand[i], pool[j] = pool[j], hand[i]
        if game == "kingdoms":
            data[secrets][other] = hand[0]
        elif game == "kingdom-cards":
            data[secrets][other] = sort_cards(hand)  # the engine keeps hands sorted
        else:
            data[secrets][other] = hand
        data[pool_key] = pool[::-1]
        swapped = ruleset.load(data)
        assert ruleset.view(swapped, seat) == ruleset.view(state, seat)
        assert ruleset.dump(swapped) != ruleset.dump(state)  # the secrets did change
        return swapped
    return None


def positions_with_secrets(game):
    """Positions where another seat than the one to act holds a secret, and that secret
    exchanged by hand."""
    for seed in range(6):
        ruleset, state, seat = midgame(game, seed, moves=seed * 3)
        if seat is None:
            continue
        swapped = swapped_by_hand(game, ruleset, state, seat)
        if swapped is not None:
            yield ruleset, state, swapped, seat


@pytest.mark.parametrize("game", sorted(GAMES))
def test_the_canonical_world_forgets_secrets_changed_by_hand(game):
    checked = 0
    for ruleset, state, swapped, seat in positions_with_secrets(game):
        checked += 1
        assert ruleset.dump(canonical_world(ruleset, state, seat)) == ruleset.dump(
            canonical_world(ruleset, swapped, seat)
        )
    assert checked >= 3, "too few positions where another seat holds a secret"


@pytest.mark.parametrize("game", sorted(GAMES))
def test_the_hard_search_s_values_ignore_secrets_changed_by_hand(game):
    """Stronger than comparing the chosen command, which the medium bot's favourite often
    settles alone: every candidate's value must come out the same."""
    budget = Budget(seconds=None, playouts=30)
    searched = 0
    for ruleset, state, swapped, seat in positions_with_secrets(game):
        first, second = (
            pimc.decide(ruleset, s, seat, random.Random(7), budget, KNOWLEDGE[game])
            for s in (state, swapped)
        )
        assert first == second
        searched += first.playouts > 0
    assert searched >= 2, "too few positions that needed a search"


@pytest.mark.parametrize("level", ["easy", "medium", "hard", "expert"])
@pytest.mark.parametrize("game", sorted(GAMES))
def test_each_level_ignores_another_seat_s_secrets_changed_by_hand(game, level):
    bot = get_strategy(game, level)
    checked = 0
    with thinking_budget(seconds=None, playouts=30):
        for ruleset, state, swapped, seat in positions_with_secrets(game):
            checked += 1
            assert bot(ruleset, state, seat, random.Random(7)) == bot(
                ruleset, swapped, seat, random.Random(7)
            )
    assert checked >= 3, "too few positions where another seat holds a secret"


@pytest.mark.parametrize("game", sorted(GAMES))
def test_the_tree_search_decides_from_its_own_view_only(game):
    for seed in range(2):
        ruleset, state, seat = midgame(game, seed, moves=5 + 7 * seed)
        one, two = other_worlds(ruleset, state, seat)
        budget = Budget(seconds=None, playouts=25)
        first = search(ruleset, one, seat, random.Random(3), budget)
        second = search(ruleset, two, seat, random.Random(3), budget)
        assert first.command == second.command and first.visits == second.visits


@pytest.mark.parametrize("game", sorted(GAMES))
def test_the_expert_search_s_tree_ignores_secrets_changed_by_hand(game):
    """Every root visit count and value must come out the same, not just the choice."""
    budget = Budget(seconds=None, playouts=30)
    searched = 0
    for ruleset, state, swapped, seat in positions_with_secrets(game):
        first, second = (
            expert.search(ruleset, s, seat, random.Random(7), budget, KNOWLEDGE[game])
            for s in (state, swapped)
        )
        assert first == second
        searched += first.playouts > 0
    assert searched >= 2, "too few positions that needed a search"


@pytest.mark.parametrize("game", sorted(GAMES))
def test_the_expert_search_looks_beyond_the_root_within_its_playouts(game):
    moves = 2
    ruleset, state, seat = midgame(game, 4, moves)
    while len(ruleset.legal_commands(state, seat)) < 3:  # a real choice
        moves += 1
        ruleset, state, seat = midgame(game, 4, moves)
    budget = Budget(seconds=None, playouts=40)
    found = expert.ExpertSearch(ruleset, state, seat, random.Random(0), budget, KNOWLEDGE[game])
    decision = found.run()
    assert decision.playouts == 40 and sum(decision.visits.values()) == 40
    assert decision.command in ruleset.legal_commands(state, seat)
    # Some root command was followed by more of the game than itself: a deeper node.
    assert any(edge.outcomes for edge in found.root.edges.values())


@pytest.mark.parametrize("game", sorted(GAMES))
def test_the_search_spends_exactly_its_playouts(game):
    moves = 2
    ruleset, state, seat = midgame(game, 4, moves)
    while len(ruleset.legal_commands(state, seat)) < 3:  # a real choice
        moves += 1
        ruleset, state, seat = midgame(game, 4, moves)
    budget = Budget(seconds=None, playouts=40)
    tree = search(ruleset, state, seat, random.Random(0), budget)
    assert tree.playouts == 40 and sum(tree.visits.values()) == 40
    paired = pimc.decide(ruleset, state, seat, random.Random(0), budget, KNOWLEDGE[game])
    assert 0 < paired.playouts <= 40
    assert sum(paired.visits.values()) <= paired.playouts
    assert paired.command in ruleset.legal_commands(state, seat)


def test_a_single_legal_command_needs_no_playout():
    ruleset = get_ruleset("kingdoms")
    state = ruleset.fold(ruleset.setup({}, 2, random.Random(0)))
    seat = state.turn
    state = ruleset.fold(
        ruleset.decide(state, seat, {"type": "draw_tile"}, random.Random(0)), state
    )
    state.grid = ["+1a"] * 29 + [None]  # one empty space left for the drawn tile
    (only,) = ruleset.legal_commands(state, seat)
    decision = pimc.decide(
        ruleset, state, seat, random.Random(0), Budget(playouts=50), KNOWLEDGE["kingdoms"]
    )
    assert decision.command == only and decision.playouts == 0


def test_the_favourite_stands_when_the_playouts_cannot_tell_the_candidates_apart():
    ruleset, state, seat = midgame("kingdoms", 5, moves=4)
    legal = ruleset.legal_commands(state, seat)
    favourite = legal[len(legal) // 2]

    def candidates(ruleset, world, seat, legal, rng):
        return [favourite] + [c for c in legal if c != favourite][:5]

    def coin(ruleset, world, seat, players, rng):
        won = rng.random() < 0.5
        return [1.0 if won == (s == seat) else 0.0 for s in range(players)]

    knowledge = Knowledge(candidates=candidates, playout=coin, paired=True)
    decision = pimc.decide(
        ruleset, state, seat, random.Random(1), Budget(seconds=None, playouts=300), knowledge
    )
    assert decision.command == favourite


@pytest.mark.parametrize(("patience", "visits"), [(Patience(), 4), (Patience(first_cut=8), 6)])
def test_a_candidate_clearly_behind_leaves_the_race_at_the_first_cut(patience, visits):
    ruleset, state, seat = midgame("kingdoms", 5, moves=4)
    castles = [c for c in ruleset.legal_commands(state, seat) if c["type"] == "place_castle"][:3]
    row, column = castles[0]["space"]

    def candidates(ruleset, world, seat, legal, rng):
        return castles

    def first_castle_leads(ruleset, world, seat, players, rng):
        ahead = world.grid[row * 6 + column] is not None
        mine = (0.9 if ahead else 0.1) + rng.random() / 100  # alike noise for each candidate
        return [mine if s == seat else 1 - mine for s in range(players)]

    knowledge = Knowledge(candidates, first_castle_leads, paired=True, patience=patience)
    budget = Budget(seconds=None, playouts=18)  # six rounds of three
    decision = pimc.decide(ruleset, state, seat, random.Random(1), budget, knowledge)
    assert decision.command == castles[0]
    assert list(decision.visits.values()) == [visits] * 3  # 4: the others left at round 4


def test_the_thinking_budget_is_scoped_to_its_block():
    outside = current_budget()
    with thinking_budget(seconds=0.2, playouts=9) as budget:
        assert current_budget() == budget == Budget(seconds=0.2, playouts=9)
        with thinking_budget(seconds=None, playouts=3):
            assert current_budget().playouts == 3
        assert current_budget() == budget
    assert current_budget() == outside


def test_a_budget_needs_a_limit():
    with pytest.raises(ValueError):
        Budget(seconds=None, playouts=None)
    with pytest.raises(ValueError):
        Budget(seconds=0)


def test_a_clock_counts_playouts_against_the_budget():
    clock = Budget(seconds=None, playouts=3).clock()
    spent = 0
    while clock.left():
        clock.spend()
        spent += 1
    assert spent == 3 and clock.playouts == 3 and not clock.left()


def test_a_clock_does_not_start_a_playout_that_would_end_past_its_deadline():
    started = time.perf_counter()
    clock = Budget(seconds=1.0).clock(started=started - 0.5)  # half the second gone
    assert clock.pace() == 0.0 and clock.left() and clock.left(upcoming=0.2)
    assert not clock.left(upcoming=0.6)  # would end past the deadline (1 s less the margin)
    clock.spend(5)
    # Five playouts in about half a second: about 0.1 s each.
    assert 0.09 < clock.pace() < 0.2


def test_kingdoms_placing_rewards_are_the_lead_s_logistic_for_two_seats():
    ahead, behind = placing_rewards([30.0, 20.0], 5.0)
    assert ahead == pytest.approx(1 / (1 + math.exp(-2)))
    assert ahead + behind == pytest.approx(1.0)


def test_kingdoms_placing_rewards_count_every_other_seat_at_three():
    # Seat 1 trails the leader by as much as seat 2 does, but is far ahead of seat 2:
    # the lead over the strongest seat alone could not tell them apart.
    leader, second, last = placing_rewards([50.0, 40.0, 0.0], 5.0)
    assert leader > second > last
    assert second == pytest.approx((1 / (1 + math.exp(2)) + 1 / (1 + math.exp(-8))) / 2)
    assert leader + second + last == pytest.approx(1.5)  # each pair shares one win


def test_kingdoms_expert_playouts_value_the_rank_1_castles_a_seat_still_holds():
    ruleset = get_ruleset("kingdoms")
    world = ruleset.fold(ruleset.setup({}, 2, random.Random(3)))
    world.castles[1][0] = 0  # seat 1 has placed its rank 1 castles, seat 0 holds its own
    kept = kingdoms.playout(ruleset, world, 0, 2, random.Random(0), turns=0, castle_in_hand=3.0)
    not_kept = kingdoms.playout(ruleset, world, 0, 2, random.Random(0), turns=0)
    assert not_kept[0] == pytest.approx(0.5)  # nothing else tells the seats apart yet
    assert kept[0] > not_kept[0]
    assert kept[0] + kept[1] == pytest.approx(1.0)


@pytest.mark.parametrize(("players", "searched"), [(2, "paired"), (3, "tree"), (4, "paired")])
def test_the_kingdom_cards_expert_searches_a_tree_at_three_seats_and_pairs_at_the_others(
    players, searched, monkeypatch
):
    ruleset = get_ruleset("kingdom-cards")
    options = ruleset.clean_options({"allow_two_players": True})
    rng = random.Random(11)
    state = ruleset.fold(ruleset.setup(options, players, rng))
    seat = sorted(ruleset.to_act(state))[0]
    calls = []
    for name, module, function in (("paired", pimc, "decide"), ("tree", expert, "search")):
        real = getattr(module, function)
        monkeypatch.setattr(
            module,
            function,
            lambda *args, _real=real, _name=name: calls.append(_name) or _real(*args),
        )
    with thinking_budget(seconds=None, playouts=20):
        command = get_strategy("kingdom-cards", "expert")(ruleset, state, seat, random.Random(4))
    assert calls == [searched]
    assert command in ruleset.legal_commands(state, seat)


@pytest.mark.parametrize(
    ("players", "knowledge"),
    [(2, kingdom_builder.EXPERT_KNOWLEDGE), (3, KNOWLEDGE["kingdom-builder"])],
)
def test_the_kingdom_builder_expert_plays_the_last_turns_out_at_two_seats_only(
    players, knowledge, monkeypatch
):
    ruleset = get_ruleset("kingdom-builder")
    state = ruleset.fold(ruleset.setup(ruleset.clean_options({}), players, random.Random(5)))
    seat = sorted(ruleset.to_act(state))[0]
    used = []
    real = pimc.decide
    monkeypatch.setattr(pimc, "decide", lambda *args: used.append(args[-1]) or real(*args))
    with thinking_budget(seconds=None, playouts=10):
        command = get_strategy("kingdom-builder", "expert")(ruleset, state, seat, random.Random(6))
    # Beyond two seats hard's playouts: the played-out endgame placed behind them at three.
    assert used == [knowledge]
    assert command in ruleset.legal_commands(state, seat)
