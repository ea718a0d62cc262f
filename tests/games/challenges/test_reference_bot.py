"""The reference bot's choices and how it follows a game's stream (examples/bot/
kingdom_bot.py), against scripted streams; the whole bot against real servers:
tests/production/test_bot_api.py."""

from __future__ import annotations

import importlib.util
from pathlib import Path
from types import SimpleNamespace

import pytest
import requests

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
    def __init__(self, streams: list | None = None, answers: list[int] | None = None) -> None:
        self.posted: list[tuple[str, dict | None]] = []
        self.opened: list[str] = []
        self.streams = list(streams or [])  # per opening: its lines, or what it raises
        self.answers = list(answers or [])  # the POSTs' statuses in turn (then 201)

    def another(self) -> FakeApi:
        return self

    def post(self, path: str, body: dict | None = None) -> SimpleNamespace:
        self.posted.append((path, body))
        return SimpleNamespace(status_code=self.answers.pop(0) if self.answers else 201, text="{}")

    def lines(self, path: str):
        self.opened.append(path)
        script = self.streams.pop(0)
        for line in script:
            if isinstance(line, Exception):
                raise line
            yield line


def full(seq: int, legal: list, status: str = "active") -> dict:
    state = {"seq": seq, "status": status, "legal": legal}
    return {"type": "gameFull", "your_seat": 1, "state": state}


def state(seq: int, legal: list, status: str = "active") -> dict:
    return {"type": "gameState", "seq": seq, "status": status, "legal": legal}


def refused(status: int) -> requests.HTTPError:
    return requests.HTTPError(f"{status}", response=SimpleNamespace(status_code=status))


@pytest.fixture
def waits(kingdom_bot, monkeypatch) -> list[float]:
    """The bot's waits before reopening a stream, kept instead of slept."""
    slept: list[float] = []
    monkeypatch.setattr(kingdom_bot, "time", SimpleNamespace(sleep=slept.append))
    return slept


def moves_of(api: FakeApi) -> list[int]:
    return [body["expected_seq"] for path, body in api.posted if path.endswith("/move/")]


def test_a_game_stream_that_ends_before_the_result_is_reopened_after_its_last_seq(
    kingdom_bot, waits
):
    move = {"type": "end_turn"}
    api = FakeApi(
        [
            # The server restarts: the stream ends cleanly at seq 7, the game not over.
            [full(5, [move]), state(7, [])],
            # ...then the reopening fails while it is away, twice.
            [requests.ConnectionError("refused")],
            [refused(503)],
            # Back: the game from seq 7 on, played to its result.
            [full(8, [move]), state(9, []), state(10, [move]), state(12, [], "finished")],
        ]
    )
    bot = kingdom_bot.Bot(api, kingdom_bot.random_legal, {"kingdoms"}, games=1)
    bot.playing.add("g1")
    bot.play("g1")
    assert api.opened == [
        "/api/bot/game/stream/g1/?after=0",
        "/api/bot/game/stream/g1/?after=7",
        "/api/bot/game/stream/g1/?after=7",
        "/api/bot/game/stream/g1/?after=7",
    ]
    assert moves_of(api) == [5, 8, 10]
    # Short waits, longer while the server stays away.
    waits_ = kingdom_bot.RESUME_WAITS
    assert waits == [waits_[0], waits_[1], waits_[2]] and all(w <= 2 for w in waits)
    # It stopped on the result alone, and counted the game.
    assert bot.done.is_set() and "g1" not in bot.playing


def test_a_move_the_server_could_not_take_is_made_again_on_the_reopened_stream(kingdom_bot, waits):
    move = {"type": "end_turn"}
    api = FakeApi([[full(5, [move])], [full(5, [move]), state(6, [], "finished")]], answers=[503])
    bot = kingdom_bot.Bot(api, kingdom_bot.random_legal, {"kingdoms"}, games=None)
    bot.play("g1")
    assert moves_of(api) == [5, 5]
    ids = {body["command_id"] for _path, body in api.posted}
    assert len(ids) == 1, "the same command id: a move the server did take is not replayed"
    assert len(waits) == 1


@pytest.mark.parametrize("status", [401, 404])
def test_a_game_stream_refused_for_good_is_left(kingdom_bot, waits, status):
    api = FakeApi([[refused(status)], [full(5, [])]])
    bot = kingdom_bot.Bot(api, kingdom_bot.random_legal, {"kingdoms"}, games=1)
    bot.playing.add("g1")
    bot.play("g1")
    assert len(api.opened) == 1 and "g1" not in bot.playing
    assert not bot.done.is_set(), "a game left is not a game finished"


def test_the_event_stream_is_reopened_with_backoff_and_a_refused_token_stops_the_bot(
    kingdom_bot, waits
):
    api = FakeApi(
        [
            [],  # the stream ends cleanly (a server restarting)
            [requests.ConnectionError("refused")],
            [{"type": "gameFinish", "game": {"id": "g0"}}],  # a line: the waits start over
            [],
            [refused(401)],  # the token was revoked
            [{"type": "gameFinish", "game": {"id": "g1"}}],
        ]
    )
    bot = kingdom_bot.Bot(api, kingdom_bot.random_legal, {"kingdoms"}, games=None)
    bot.run()
    first, second = kingdom_bot.RESUME_WAITS[:2]
    assert waits == [first, second, first, second]
    assert len(api.opened) == 5 and bot.done.is_set()


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
