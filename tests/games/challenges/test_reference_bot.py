"""The reference bot's choices (examples/bot/kingdom_bot.py); the whole bot against real
servers: tests/production/test_bot_api.py."""

from __future__ import annotations

import importlib.util
from pathlib import Path
from types import SimpleNamespace

import pytest

from games import selectors
from tests.games.helpers import humans_game, to_act

PATH = Path(__file__).resolve().parents[3] / "examples" / "bot" / "kingdom_bot.py"


@pytest.fixture(scope="module")
def kingdom_bot():
    spec = importlib.util.spec_from_file_location("kingdom_bot", PATH)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


class FakeApi:
    def __init__(self) -> None:
        self.posted: list[tuple[str, dict | None]] = []

    def post(self, path: str, body: dict | None = None) -> SimpleNamespace:
        self.posted.append((path, body))
        return SimpleNamespace(status_code=200, text="{}")


def test_it_accepts_the_games_it_knows_and_declines_the_others(kingdom_bot):
    api = FakeApi()
    bot = kingdom_bot.Bot(api, kingdom_bot.random_legal, {"kingdoms"}, games=None)
    bot.on_challenge({"id": "c1", "ruleset": "kingdoms", "direction": "in"})
    bot.on_challenge({"id": "c2", "ruleset": "kingdom-cards", "direction": "in"})
    bot.on_challenge({"id": "c3", "ruleset": "kingdoms", "direction": "out"})
    assert [path for path, _ in api.posted] == [
        "/api/challenge/c1/accept/",
        "/api/challenge/c2/decline/",
    ]


@pytest.mark.parametrize("ruleset", ["kingdoms", "kingdom-builder"])
def test_the_medium_strategy_inside_the_project_plays_a_legal_command(
    kingdom_bot, make_user, ruleset
):
    ana, bob = make_user("ana"), make_user("bob")
    game = humans_game([ana, bob], ruleset=ruleset)
    (seat,) = to_act(game)
    legal = selectors.legal_commands(game, seat)
    state = {"seq": game.head_seq, "legal": legal}
    choose = kingdom_bot.project_strategy("medium")
    assert choose(str(game.id), state, seat) in legal
    assert kingdom_bot.random_legal(str(game.id), state, seat) in legal
