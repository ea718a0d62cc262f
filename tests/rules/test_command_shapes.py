"""Every ruleset's declared command shapes (``command_shapes``) against what its engine
actually produces: a shape never refuses a legal command, and refuses extra keys and
ill-typed fields before ``decide`` sees them."""

from __future__ import annotations

import random

import pytest

from games.rules import all_rulesets, get_ruleset
from games.rules.base import IllegalCommand, Ruleset
from games.rules.kingdom_builder import turn as builder_turn
from games.rules.kingdom_cards import decide as cards_decide
from games.rules.kingdoms import play as kingdoms_play
from games.rules.shapes import validate_command

ENGINE_COMMANDS = {
    "kingdoms": kingdoms_play.COMMAND_TYPES,
    "kingdom-builder": builder_turn.COMMANDS,
    "kingdom-cards": cards_decide.COMMANDS,
}


def random_options(ruleset: Ruleset, rng: random.Random) -> dict:
    """Random choices for every option with choices, most bool variants switched on."""
    options: dict = {}
    for option in ruleset.options:
        if option.choices:
            options[option.name] = rng.choice(option.choices)
        elif isinstance(option.default, bool):
            options[option.name] = rng.random() < 0.7
    try:
        return ruleset.clean_options(options)
    except IllegalCommand:  # a combination the ruleset refuses: its defaults
        return ruleset.clean_options({})


def legal_commands_of_random_games(ruleset: Ruleset, games: int, max_steps: int = 2000):
    """Every legal command of every state of ``games`` random games, with their seat."""
    for seed in range(games):
        rng = random.Random(seed)
        options = random_options(ruleset, rng)
        low, high = ruleset.seat_range(options)
        state = ruleset.fold(ruleset.setup(options, rng.randint(low, high), rng))
        for _ in range(max_steps):
            if not ruleset.to_act(state):
                break
            seat = rng.choice(sorted(ruleset.to_act(state)))
            legal = ruleset.legal_commands(state, seat)
            yield from legal
            # Played as a bot plays (never Kingdom Builder's undo, which would only wander).
            move = rng.choice(ruleset.bot_commands(state, seat))
            for event in ruleset.decide(state, seat, move, rng):
                state = ruleset.evolve(state, event)


@pytest.mark.parametrize("key", sorted(ENGINE_COMMANDS))
def test_every_command_type_the_engine_knows_has_a_shape(key):
    assert set(get_ruleset(key).command_shapes) == set(ENGINE_COMMANDS[key])


@pytest.mark.parametrize("key", sorted(ENGINE_COMMANDS))
def test_shapes_never_refuse_a_legal_command_of_a_random_game(key):
    ruleset = get_ruleset(key)
    seen: set[str] = set()
    for command in legal_commands_of_random_games(ruleset, games=90):
        assert validate_command(ruleset.command_shapes, command) == command
        seen.add(command["type"])
    # The random games reach most command types (Resettlement's move_settlement and a
    # second alike tile's discard_tile are rare: one game in about 80 in these seeds).
    assert len(seen) >= len(ruleset.command_shapes) - 1, sorted(seen)


def _refused(ruleset: Ruleset, command) -> str:
    with pytest.raises(IllegalCommand) as refusal:
        validate_command(ruleset.command_shapes, command)
    return refusal.value.code


@pytest.mark.parametrize("key", sorted(ENGINE_COMMANDS))
def test_shapes_refuse_an_extra_key_and_every_ill_typed_field(key):
    ruleset = get_ruleset(key)
    commands = list(legal_commands_of_random_games(ruleset, games=2, max_steps=200))
    for command in random.Random(1).sample(commands, min(300, len(commands))):
        assert _refused(ruleset, {**command, "note": "x" * 1_000_000}) == "bad_command"
        for name in command:
            if name == "type":
                continue
            for junk in ({"a": 1}, None, True, "\x00", "\ud800", [command[name]], 2**40):
                assert _refused(ruleset, {**command, name: junk}) == "bad_command"
            missing = {k: v for k, v in command.items() if k != name}
            if not ruleset.command_shapes[command["type"]][name].optional:
                assert _refused(ruleset, missing) == "bad_command"


def test_an_unhashable_or_unknown_type_is_an_unknown_command():
    for ruleset in all_rulesets():
        for kind in (["pass"], {"a": 1}, None, 3, "nope", "x" * 100_000):
            assert _refused(ruleset, {"type": kind}) == "unknown_command"
        assert _refused(ruleset, ["pass"]) == "bad_command"


def test_a_refusal_never_echoes_more_than_a_few_dozen_characters_of_input():
    ruleset = get_ruleset("kingdoms")
    for command in (
        {"type": "x" * 100_000},
        {"type": "pass", "y" * 100_000: 1},
        {"type": "place_castle", "rank": 1, "space": ["z" * 100_000, 1]},
    ):
        with pytest.raises(IllegalCommand) as refusal:
            validate_command(ruleset.command_shapes, command)
        assert len(refusal.value.message) < 400


def test_the_validated_command_holds_only_declared_fields_and_keeps_optional_ones():
    shapes = get_ruleset("kingdom-builder").command_shapes
    move = {"type": "use_tile", "tile": "paddock", "from": [1, 2], "to": [3, 2]}
    assert validate_command(shapes, move) == move
    place = {"type": "use_tile", "tile": "oracle", "to": [3, 2]}
    assert validate_command(shapes, place) == place
