#!/usr/bin/env python3
"""A reference bot for Kingdom's bot API (docs/bot-api.md): the Python standard library
and one HTTP client, ``requests``.

It follows its account's event stream, accepts the challenges of the games it knows
(declines the others), follows each game's stream and plays its seat: a random legal
command by default, or the service's own medium strategy (``--strategy medium``) when
run inside the project (it then needs the project's settings and database: it is the
service's bot code, choosing from what its seat may know).

    python examples/bot/kingdom_bot.py --server http://127.0.0.1:8000 --token <token>

``--games N`` stops after N finished games; ``--challenge <user> --ruleset <key>`` makes
a challenge first (the bot plays that game too).
"""

from __future__ import annotations

import argparse
import json
import logging
import random
import sys
import threading
import time
import uuid
from collections.abc import Callable, Iterator
from typing import Any

import requests

log = logging.getLogger("kingdom_bot")
RULESETS = ("kingdoms", "kingdom-builder", "kingdom-cards")
# The server sends an empty line at least every 7 seconds: silence this long is a dead line.
READ_TIMEOUT = 30
# A game's stream ends after the game's result; one that ends (or fails) before it, as
# when a server restarts, is reopened after its last seq, after these waits in turn (the
# last one repeated), from the first again once a line arrives.
RESUME_WAITS = (0.5, 1.0, 2.0, 4.0, 8.0)
OVER = {"finished", "aborted"}
# Answers to a game's stream that reopening would not change: the token revoked, the
# game gone.
GIVE_UP = {401, 403, 404}
Choose = Callable[[str, dict[str, Any], int | None], dict[str, Any]]


class Api:
    """The server's API as one account; one per thread (a requests session is not
    meant to be shared between threads)."""

    def __init__(self, server: str, token: str) -> None:
        self.server = server.rstrip("/")
        self.token = token
        self.http = requests.Session()
        self.http.headers["Authorization"] = f"Token {token}"

    def another(self) -> Api:
        return Api(self.server, self.token)

    def post(self, path: str, body: dict[str, Any] | None = None) -> requests.Response:
        return self.http.post(self.server + path, json=body or {}, timeout=READ_TIMEOUT)

    def lines(self, path: str) -> Iterator[dict[str, Any]]:
        """An NDJSON stream's objects (keep-alive lines skipped) until it ends."""
        with self.http.get(self.server + path, stream=True, timeout=READ_TIMEOUT) as answer:
            answer.raise_for_status()
            for raw in answer.iter_lines():
                if raw:
                    yield json.loads(raw)


def random_legal(game_id: str, state: dict[str, Any], seat: int | None) -> dict[str, Any]:
    return random.choice(state["legal"])


def project_strategy(level: str) -> Choose:
    """The service's own strategy at ``level``, run inside the project (Django set up
    from DJANGO_SETTINGS_MODULE, the project on sys.path): as the service's bots do
    (bots/turns.py), it decides on the game's state at the head for its seat."""
    import django

    django.setup()
    from bots.strategies import get_strategy
    from games import selectors, storage
    from games.rules import get_ruleset
    from games.rules.base import seeded_rng

    def choose(game_id: str, state: dict[str, Any], seat: int | None) -> dict[str, Any]:
        game = selectors.get_game(game_id)
        if game.head_seq != state["seq"] or seat is None:
            return random_legal(game_id, state, seat)  # the game moved on: any legal move
        rules = get_ruleset(game.ruleset)
        rng = seeded_rng(f"reference-bot:{game_id}:{seat}", game.head_seq)
        with storage.reading(game) as table:
            return get_strategy(rules.key, level)(rules, table.rules, seat, rng)

    return choose


class Bot:
    def __init__(self, api: Api, choose: Choose, rulesets: set[str], games: int | None) -> None:
        self.api = api
        self.choose = choose
        self.rulesets = rulesets
        self.games_left = games
        self.playing: set[str] = set()
        self.lock = threading.Lock()
        self.done = threading.Event()

    # ---- the account's events -----------------------------------------------------------
    def run(self) -> None:
        """Follow the account's events until done, reopening the stream with backoff when
        it ends or fails; a refused token (401, 403) stops the bot."""
        failures = 0
        while not self.done.is_set():
            try:
                for event in self.api.lines("/api/stream/event/"):
                    failures = 0
                    self.on_event(event)
                    if self.done.is_set():
                        return
                why = "ended"
            except requests.HTTPError as exc:
                status = exc.response.status_code if exc.response is not None else None
                if status in GIVE_UP:
                    log.error("event stream refused (%s): stopping", status)
                    self.done.set()
                    return
                why = str(exc)
            except requests.RequestException as exc:
                why = str(exc)
            wait = RESUME_WAITS[min(failures, len(RESUME_WAITS) - 1)]
            failures += 1
            log.warning("event stream %s; reconnecting in %g s", why, wait)
            time.sleep(wait)

    def on_event(self, event: dict[str, Any]) -> None:
        kind = event.get("type")
        if kind == "challenge":
            self.on_challenge(event["challenge"])
        elif kind == "gameStart":
            self.start_game(event["game"]["id"])
        elif kind == "gameFinish":
            log.info("game %s finished", event["game"]["id"])

    def on_challenge(self, challenge: dict[str, Any]) -> None:
        if challenge.get("direction") != "in":
            return
        path = f"/api/challenge/{challenge['id']}"
        if challenge["ruleset"] in self.rulesets:
            answer = self.api.post(f"{path}/accept/")
            log.info(
                "accepted %s (%s): %s", challenge["id"], challenge["ruleset"], answer.status_code
            )
        else:
            self.api.post(f"{path}/decline/", {"reason": "I do not play that game."})

    def start_game(self, game_id: str) -> None:
        with self.lock:
            if game_id in self.playing:
                return
            self.playing.add(game_id)
        threading.Thread(target=self.play, args=(game_id,), daemon=True).start()

    # ---- one game ---------------------------------------------------------------------
    def play(self, game_id: str) -> None:
        """Play the seat until the game's stream says the game is over, reopening the
        stream after its last seq whenever it ends or fails before that."""
        api = self.api.another()
        seq, seat, acted_at, failures = 0, None, -1, 0
        while True:
            try:
                path = f"/api/bot/game/stream/{game_id}/?after={seq}"
                for line in api.lines(path):
                    if line["type"] == "gameFull":
                        seat, state = line["your_seat"], line["state"]
                    elif line["type"] == "gameState":
                        state = line
                    else:
                        continue
                    seq, failures = state["seq"], 0
                    if state["status"] in OVER:
                        self.finished(game_id)
                        return
                    if state["legal"] and seq > acted_at:
                        self.move(api, game_id, state, seat)
                        acted_at = seq  # (a move that failed is tried again on resuming)
                why = "ended before the result"
            except requests.HTTPError as exc:
                status = exc.response.status_code if exc.response is not None else None
                if status in GIVE_UP:
                    log.error("game %s stream refused (%s): leaving the game", game_id, status)
                    with self.lock:
                        self.playing.discard(game_id)
                    return
                why = str(exc)
            except requests.RequestException as exc:
                why = str(exc)
            wait = RESUME_WAITS[min(failures, len(RESUME_WAITS) - 1)]
            failures += 1
            log.warning("game %s stream %s; resuming after %s in %g s", game_id, why, seq, wait)
            time.sleep(wait)

    def move(self, api: Api, game_id: str, state: dict[str, Any], seat: int | None) -> None:
        command = self.choose(game_id, state, seat)
        # The same id for the same seq and seat: a retried POST is answered, not replayed.
        command_id = uuid.uuid5(uuid.NAMESPACE_URL, f"{game_id}/{state['seq']}/{seat}")
        body = {"command": command, "command_id": str(command_id), "expected_seq": state["seq"]}
        answer = api.post(f"/api/bot/game/{game_id}/move/", body)
        if answer.status_code == 409:
            return  # someone moved first: the stream brings the new state
        if answer.status_code == 429 or answer.status_code >= 500:
            # Not decided (too fast, or a server away): the game's stream is resumed and
            # the move tried again, under the same command id.
            raise requests.HTTPError(f"move answered {answer.status_code}", response=answer)
        if answer.status_code >= 400:
            log.error("game %s: %s refused: %s", game_id, command, answer.text)

    def finished(self, game_id: str) -> None:
        with self.lock:
            self.playing.discard(game_id)
            if self.games_left is not None:
                self.games_left -= 1
                if self.games_left <= 0:
                    self.done.set()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--server", default="http://127.0.0.1:8000")
    parser.add_argument("--token", required=True, help="the bot account's API token")
    parser.add_argument("--rulesets", default=",".join(RULESETS), help="the games it accepts")
    parser.add_argument("--strategy", default="random", choices=["random", "easy", "medium"])
    parser.add_argument("--games", type=int, help="stop after this many finished games")
    parser.add_argument("--challenge", help="challenge this player first")
    parser.add_argument("--ruleset", default="kingdoms", help="the game of --challenge")
    args = parser.parse_args(argv)
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(name)s %(message)s")
    choose = random_legal if args.strategy == "random" else project_strategy(args.strategy)
    api = Api(args.server, args.token)
    bot = Bot(api, choose, set(args.rulesets.split(",")), args.games)
    if args.challenge:
        made = api.post(f"/api/challenge/{args.challenge}/", {"ruleset": args.ruleset})
        log.info("challenged %s: %s %s", args.challenge, made.status_code, made.text)
    runner = threading.Thread(target=bot.run, daemon=True)
    runner.start()
    bot.done.wait()
    return 0


if __name__ == "__main__":
    sys.exit(main())
