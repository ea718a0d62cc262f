"""The bot API end to end: a person challenges the reference bot (examples/bot/, a
process of its own on web process A) through web process B; the bot accepts from its
event stream, follows the game's stream and plays its seat to the result, in each game.
And a challenge made on one web process reaches an event stream open on the other at
once."""

from __future__ import annotations

import json
import random
import subprocess
import sys
import urllib.request

from games.models import Game, GameEvent
from tests.production.helpers import PRODUCTION, assert_log_is_sound, play_randomly, seat_of
from tests.production.processes import ROOT, python_env, wait_until

pytestmark = PRODUCTION
GAMES = [
    ("kingdoms", {}),
    ("kingdom-builder", {}),
    ("kingdom-cards", {"allow_two_players": True}),
]
ACCEPT_SECONDS = 20


def test_a_person_challenges_the_reference_bot_and_it_plays_each_game_to_the_result(
    cluster, player, tmp_path
):
    a, b = cluster.urls
    person, robo = player("person"), player("robo")
    robo.http(a).post("/api/bot/account/upgrade/")
    log_path = tmp_path / "reference-bot.log"
    with log_path.open("w") as log:
        bot = subprocess.Popen(
            [
                sys.executable,
                "examples/bot/kingdom_bot.py",
                "--server",
                a,
                "--token",
                robo.token,
                "--games",
                str(len(GAMES)),
            ],
            cwd=ROOT,
            env=python_env(),
            stdout=log,
            stderr=subprocess.STDOUT,
        )
    try:
        for ruleset, options in GAMES:
            challenge = person.http(b).post(
                "/api/challenge/robo/", {"ruleset": ruleset, "options": options}, expect=201
            )
            game_id = challenge["table"]

            def started(game_id: str = game_id) -> bool:
                return Game.objects.get(pk=game_id).status != Game.Status.OPEN

            wait_until(started, f"the bot accepts the {ruleset} challenge", ACCEPT_SECONDS)
            seats = {seat_of(game_id, person.user): person}
            play_randomly(game_id, seats, [b, a], random.Random(7))

            game = Game.objects.get(pk=game_id)
            assert game.status == Game.Status.FINISHED, log_path.read_text()[-3000:]
            robo_seat = seat_of(game_id, robo.user)
            robo_moves = GameEvent.objects.filter(
                game=game, actor=f"seat:{robo_seat}", command_id__isnull=False
            )
            assert robo_moves.exists(), "the bot account played its own seat"
            assert not game.seats.get(user=robo.user).departed
            assert_log_is_sound(game_id)
        # It counted each game's end from its streams and stopped after the last.
        assert bot.wait(timeout=30) == 0, log_path.read_text()[-3000:]
    finally:
        if bot.poll() is None:
            bot.kill()
            bot.wait()


def _next_object(stream) -> dict:
    """The stream's next JSON line (keep-alive lines skipped)."""
    while True:
        raw = stream.readline()
        assert raw, "the event stream ended"
        if raw.strip():
            return json.loads(raw)


def test_a_challenge_made_on_one_process_reaches_an_event_stream_on_the_other_at_once(
    cluster, player
):
    a, b = cluster.urls
    ana, bob, carol = player("ana"), player("bob"), player("carol")
    earlier = carol.http(b).post("/api/challenge/bob/", {"ruleset": "kingdoms"}, expect=201)
    request = urllib.request.Request(
        a + "/api/stream/event/", headers={"Authorization": f"Token {bob.token}"}
    )
    with urllib.request.urlopen(request, timeout=10) as stream:
        assert stream.headers["Content-Type"] == "application/x-ndjson"
        # The opening's lines are sent once the stream listens: from here on it hears all.
        opening = _next_object(stream)
        assert (opening["type"], opening["challenge"]["id"]) == ("challenge", earlier["id"])
        made = ana.http(b).post("/api/challenge/bob/", {"ruleset": "kingdoms"}, expect=201)
        # How soon is a benchmark's figure (docs/performance.md), not this test's: the
        # stream's read timeout only keeps a lost line from hanging it.
        line = _next_object(stream)
    assert line["type"] == "challenge" and line["challenge"]["id"] == made["id"]
    assert line["challenge"]["challenger"] == {"name": "ana", "bot": False}
