"""Tables made over HTTP, and what the log says they must show (a full replay in this
process, from the database the servers wrote)."""

from __future__ import annotations

import json
import time
from typing import Any

import pytest
from django.core.management import call_command

from bots.turns import bot_command_id
from games import selectors, storage
from games import table as tables
from games.models import Game, GameEvent
from games.rules import get_ruleset
from tests.conftest import needs_postgres, needs_redis
from tests.production.clients import Http

# Every test here: the real PostgreSQL and Redis, and committed rows the servers can see.
PRODUCTION = [needs_postgres, needs_redis, pytest.mark.django_db(transaction=True)]
FINISH_SECONDS = 90


def open_table(host: Http, ruleset: str = "kingdoms", seats: int = 2, **body: Any) -> str:
    table = host.post("/api/tables/", {"ruleset": ruleset, "seats": seats, **body}, expect=201)
    return table["id"]


def started_pair(host: Any, guest: Any, create_on: str, join_on: str, start_on: str):
    """A started 2-player Kingdoms table of ``host`` and ``guest``, each step through the
    server given, and its players by seat."""
    game_id = open_table(host.http(create_on))
    guest.http(join_on).post(f"/api/tables/{game_id}/join/")
    host.http(start_on).post(f"/api/tables/{game_id}/start/")
    return game_id, {seat_of(game_id, p.user): p for p in (host, guest)}


def seat_of(game_id: str, user) -> int:
    return Game.objects.get(pk=game_id).seats.get(user=user).number


def jsonable(value: Any) -> Any:
    """As the value reads after a trip through JSON (tuples become lists, keys strings)."""
    return json.loads(json.dumps(value))


class Replay:
    """Views and legal commands after every seq, from one fold of the stored log."""

    def __init__(self, game_id: str, seats: list[int | None]) -> None:
        game = Game.objects.get(pk=game_id)
        rules = get_ruleset(game.ruleset)
        self.views: dict[tuple[int, int | None], Any] = {}
        self.legal: dict[tuple[int, int | None], Any] = {}
        table = None
        rows = GameEvent.objects.filter(game=game).order_by("seq")
        for row in rows.iterator():
            table = tables.apply(rules, table, storage.to_event(row))
            for seat in seats:
                # Once the game is over every seat's secrets are shown to all (selectors).
                view = tables.view(rules, table, seat, reveal=table.over)
                self.views[row.seq, seat] = jsonable(view)
                self.legal[row.seq, seat] = jsonable(_legal(rules, table, seat))
        self.head = game.head_seq


def _legal(rules, table, seat: int | None) -> list:
    """What selectors.legal_commands answers at this state (its rules, on the fold)."""
    if seat is None or table.rules is None or table.over or seat in table.resigned:
        return []
    if seat not in rules.to_act(table.rules):
        return []
    return rules.legal_commands(table.rules, seat)


def stored_events(game_id: str, seat: int | None) -> list[dict[str, Any]]:
    """The log as ``seat`` may read it, without the fields a stream may format anew."""
    game = Game.objects.get(pk=game_id)
    return [brief(e) for e in selectors.events_after(game, seat, 0, limit=100_000)]


def brief(event: dict[str, Any]) -> tuple:
    return (event["seq"], event["type"], jsonable(event["data"]), event["actor"])


def assert_log_is_sound(game_id: str) -> list[GameEvent]:
    """Seqs 1..head with no gap or duplicate; each bot move recorded under the command id
    of the turn it was scheduled for (game, seq before it, seat), so a redelivered or
    nudged task that played again would show as a second move of that turn."""
    game = Game.objects.get(pk=game_id)
    rows = list(GameEvent.objects.filter(game=game).order_by("seq"))
    assert [r.seq for r in rows] == list(range(1, game.head_seq + 1))
    for row in rows:
        kind, _, seat = row.actor.partition(":")
        if kind == "bot" and row.command_id is not None:  # a command's first event
            expected = bot_command_id(game.id, row.seq - 1, int(seat))
            assert row.command_id == expected, f"seq {row.seq}: a bot move out of its turn"
    return rows


def assert_audit_passes(game_id: str) -> None:
    """``manage.py audit_game`` on the finished game (it raises when the audit fails)."""
    call_command("audit_game", str(game_id), "--no-progress")


def wait_finished(game_id: str, cluster, seconds: float = FINISH_SECONDS) -> Game:
    deadline = time.monotonic() + seconds
    while True:
        game = Game.objects.get(pk=game_id)
        if game.status != Game.Status.ACTIVE:
            return game
        cluster.assert_running()
        if time.monotonic() > deadline:
            raise AssertionError(
                f"game {game_id} still {game.status} at seq {game.head_seq} after "
                f"{seconds:g} s\n{cluster.logs()}"
            )
        time.sleep(0.2)


def play_randomly(
    game_id: str,
    seats: dict[int, Any],
    servers: list[str],
    rng,
    *,
    moves: int | None = None,
    seconds: float = FINISH_SECONDS,
) -> int:
    """People at ``seats`` (seat -> Player) play random legal moves over HTTP, each move
    through the next server, until the game ends (or ``moves`` were played); bots and
    other seats play meanwhile. Returns the moves played."""
    played, deadline = 0, time.monotonic() + seconds
    while moves is None or played < moves:
        if Game.objects.get(pk=game_id).status != Game.Status.ACTIVE:
            break
        assert time.monotonic() < deadline, f"game {game_id} stuck after {played} moves"
        moved = False
        for seat, person in seats.items():
            http = person.http(servers[played % len(servers)])
            legal = http.get(f"/api/tables/{game_id}/legal/")
            if legal["commands"]:
                body = {"command": rng.choice(legal["commands"]), "expected_seq": legal["seq"]}
                status, answer = http.request("POST", f"/api/tables/{game_id}/commands/", body)
                assert status in (201, 409), f"seat {seat}: {status} {answer}"
                played += status == 201
                moved = True
                break
        if not moved:
            time.sleep(0.05)  # a bot's turn
    return played
