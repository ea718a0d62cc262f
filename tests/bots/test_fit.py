"""The leaf models' refit (``manage.py fit_leaf``): its features are the model's, and the
regression finds weights that made the data."""

from __future__ import annotations

import math
import random

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from bots.search import fit, kingdom_builder, kingdom_cards
from tests.bots.test_search import midgame


def test_the_regression_recovers_the_weights_that_made_the_labels():
    rng = random.Random(0)
    truth = (0.8, -1.5)
    xs = [(rng.uniform(-3, 3), rng.uniform(-2, 2)) for _ in range(4000)]
    ys = [float(rng.random() < 1 / (1 + math.exp(-(truth[0] * a + truth[1] * b)))) for a, b in xs]
    weights = fit.logistic(xs, ys)
    assert weights[0] == pytest.approx(truth[0], abs=0.15)
    assert weights[1] == pytest.approx(truth[1], abs=0.15)


@pytest.mark.parametrize(
    ("game", "module"), [("kingdom-builder", kingdom_builder), ("kingdom-cards", kingdom_cards)]
)
def test_the_fitted_features_are_those_the_model_values(game, module):
    ruleset, world, seat = midgame(game, 3, moves=12)
    two = (world, 2) if module is kingdom_builder else (world, seat, 2)
    rewards = module.value(*two)
    for s in range(2):
        z = sum(w * f for w, f in zip(module.WEIGHTS, module.features(world, s, 2), strict=True))
        assert rewards[s] == pytest.approx(1 / (1 + math.exp(-z)))


def test_the_fit_command_prints_weights_for_each_feature(capsys):
    call_command("fit_leaf", "kingdom-cards", "--games", "1", "--seed", "5")
    out = capsys.readouterr().out
    assert "positions of 1 medium games" in out and out.count(",") >= 3


def test_a_searching_level_s_games_on_a_budget_of_playouts_replay_exactly():
    hard = fit.samples("kingdom-builder", 1, 7, level="hard", playouts=3)
    assert fit.samples("kingdom-builder", 1, 7, level="hard", playouts=3) == hard
    xs, ys = hard
    # Both seats at every turn's start, each labelled by the game's one result.
    assert len(xs) == len(ys) >= 2 * 10
    assert sorted(set(ys)) in ([0.0, 1.0], [0.5])
    assert hard != fit.samples("kingdom-builder", 1, 7, level="medium")


def test_games_in_worker_processes_are_the_games_played_here():
    here = fit.samples("kingdom-cards", 2, 3)
    assert fit.samples("kingdom-cards", 2, 3, jobs=2) == here


def test_the_fit_command_refuses_a_budget_below_one_playout():
    with pytest.raises(CommandError, match="at least 1"):
        call_command("fit_leaf", "kingdom-builder", "--level", "hard", "--playouts", "0")
