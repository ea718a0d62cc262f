"""The bot API's NDJSON streams through the ASGI app: the account's events and one game
as one seat sees it; keep-alives, resuming by seq, the end after the result."""

from __future__ import annotations

from datetime import timedelta

import pytest
from asgiref.sync import async_to_sync, sync_to_async
from channels.db import database_sync_to_async
from django.utils import timezone
from rest_framework.authtoken.models import Token

from community import services as community_services
from games import selectors, services
from games.api import streams
from games.models import Game
from players import services as players_services
from tests.games.helpers import humans_game, play_out, to_act
from tests.games.ndjson import NdjsonStream

pytestmark = pytest.mark.django_db(transaction=True)


def token(user) -> str:
    return Token.objects.get_or_create(user=user)[0].key


def challenge(challenger, username: str, **body):
    return services.challenge_create(
        challenger=challenger, username=username, body={"ruleset": "kingdoms", **body}
    )


def test_a_stream_needs_an_account(make_user):
    async def scenario():
        for path in (
            "/api/stream/event/",
            "/api/bot/game/stream/00000000-0000-0000-0000-000000000000/",
        ):
            stream = NdjsonStream(path)
            assert await stream.open() in (401, 403)
            assert (await stream.body())["code"] == "not_authenticated"

    async_to_sync(scenario)()


def test_an_unknown_game_or_a_bad_after_is_a_json_refusal(make_user):
    ana = make_user("ana")
    game = humans_game([ana, make_user("bob")])
    key = token(ana)

    async def scenario():
        missing = NdjsonStream("/api/bot/game/stream/00000000-0000-0000-0000-000000000000/", key)
        assert await missing.open() == 404
        assert (await missing.body())["code"] == "not_found"
        bad = NdjsonStream(f"/api/bot/game/stream/{game.id}/", key, query="after=x")
        assert await bad.open() == 400
        assert (await bad.body())["code"] == "invalid"

    async_to_sync(scenario)()


def test_the_event_stream_opens_with_what_is_going_on_then_follows_challenges(make_user):
    ana, bob, carol = make_user("ana"), make_user("bob"), make_user("carol")
    playing = humans_game([bob, carol])
    waiting = challenge(ana, "bob")

    async def scenario():
        stream = NdjsonStream("/api/stream/event/", await sync_to_async(token)(bob))
        assert await stream.open() == 200
        assert stream.headers[b"Content-Type"] == b"application/x-ndjson"
        first = await stream.next_object()
        assert first["type"] == "gameStart" and first["game"]["id"] == str(playing.id)
        second = await stream.next_object()
        assert second["type"] == "challenge" and second["challenge"]["id"] == str(waiting.id)

        made = await sync_to_async(challenge)(carol, "bob")
        line = await stream.next_object()
        assert line["type"] == "challenge" and line["challenge"]["id"] == str(made.id)
        assert line["challenge"]["challenger"] == {"name": "carol", "bot": False}

        await sync_to_async(services.challenge_cancel)(challenge_id=made.id, user=carol)
        line = await stream.next_object()
        assert line["type"] == "challengeCanceled" and line["challenge"]["id"] == str(made.id)

        await sync_to_async(services.challenge_accept)(challenge_id=waiting.id, user=bob)
        line = await stream.next_object()
        assert line["type"] == "gameStart" and line["game"]["id"] == str(waiting.game_id)
        assert {s["name"] for s in line["game"]["seats"]} == {"ana", "bob"}
        await stream.close()

    async_to_sync(scenario)()


def test_a_challenge_made_while_the_event_stream_opens_is_sent_once(make_user, monkeypatch):
    ana, bob, carol = make_user("ana"), make_user("bob"), make_user("carol")
    read = streams._account_opening
    made = []

    def opening_then_a_challenge(user):
        # The challenge comes after the opening's read, before the channel listens: its
        # news reaches no one, the stream's second read finds it.
        lines = read(user)
        if not made:
            made.append(challenge(carol, "bob"))
        return lines

    monkeypatch.setattr(streams, "_account_opening", opening_then_a_challenge)

    async def scenario():
        stream = NdjsonStream("/api/stream/event/", await sync_to_async(token)(bob))
        assert await stream.open() == 200
        line = await stream.next_object()
        assert line["type"] == "challenge" and line["challenge"]["id"] == str(made[0].id)
        later = await sync_to_async(challenge)(ana, "bob")
        line = await stream.next_object()
        assert line["type"] == "challenge" and line["challenge"]["id"] == str(later.id)
        await stream.close()

    async_to_sync(scenario)()


def test_the_challenger_hears_a_decline_with_its_reason(make_user):
    ana, bob = make_user("ana"), make_user("bob")

    async def scenario():
        stream = NdjsonStream("/api/stream/event/", await sync_to_async(token)(ana))
        assert await stream.open() == 200
        made = await sync_to_async(challenge)(ana, "bob")
        assert (await stream.next_object())["type"] == "challenge"
        await sync_to_async(services.challenge_decline)(
            challenge_id=made.id, user=bob, reason="later"
        )
        line = await stream.next_object()
        assert line["type"] == "challengeDeclined"
        assert line["challenge"]["decline_reason"] == "later"
        await stream.close()

    async_to_sync(scenario)()


def test_the_keep_alive_comes_within_the_seven_seconds_clients_count_on():
    """Clients (examples/bot/kingdom_bot.py) count on an empty line at least every 7 s."""
    assert 0 < streams.KEEPALIVE <= 7


def test_an_idle_stream_sends_empty_lines_to_stay_alive(make_user, monkeypatch):
    monkeypatch.setattr(streams, "KEEPALIVE", 0.05)
    ana = make_user("ana")

    async def scenario():
        stream = NdjsonStream("/api/stream/event/", await sync_to_async(token)(ana))
        assert await stream.open() == 200
        assert [await stream.line() for _ in range(3)] == ["", "", ""]
        await stream.close()

    async_to_sync(scenario)()


def _mover(game: Game, users):
    (seat,) = to_act(game)
    return next(u for u in users if game.seats.get(user=u).number == seat)


def test_the_game_stream_shows_the_seat_its_state_then_each_new_head(make_user):
    ana, bob = make_user("ana"), make_user("bob")
    game = humans_game([ana, bob])
    mover = _mover(game, [ana, bob])
    seat = game.seats.get(user=mover).number

    async def scenario():
        stream = NdjsonStream(f"/api/bot/game/stream/{game.id}/", await sync_to_async(token)(mover))
        assert await stream.open() == 200
        full = await stream.next_object()
        assert full["type"] == "gameFull" and full["your_seat"] == seat
        assert full["ruleset"] == "kingdoms" and full["seq"] == game.head_seq
        state = full["state"]
        assert state["seq"] == game.head_seq and state["to_act"] == [seat]
        assert state["legal"] and state["status"] == "active"
        assert {s["user"] for s in full["seats"]} == {"ana", "bob"}

        result = await sync_to_async(services.game_submit)(
            game_id=game.id, user=mover, command=state["legal"][0]
        )
        line = await stream.next_object()
        assert line["type"] == "gameState" and line["seq"] == result.head_seq
        assert [e["seq"] for e in line["events"]] == list(
            range(game.head_seq + 1, result.head_seq + 1)
        )
        assert line["legal"] == [] and line["to_act"] != [seat]

        await sync_to_async(community_services.chat_post)(game_id=game.id, user=ana, body="hi")
        chat = await stream.next_object()
        assert chat["type"] == "chatLine" and chat["body"] == "hi" and chat["author"] == "ana"
        assert chat["seq"] == result.head_seq
        await stream.close()

    async_to_sync(scenario)()


def test_a_move_posted_to_the_bot_api_reaches_the_game_stream_by_its_own_notice(make_user):
    # Nobody moves after it (the other seat is a person), so only the move's own
    # publish can bring the line.
    from rest_framework.test import APIClient

    ana, bob = make_user("ana"), make_user("bob")
    game = humans_game([ana, bob])
    mover = _mover(game, [ana, bob])
    client = APIClient()
    client.force_authenticate(mover)

    def post(command: dict) -> int:
        body = {"command": command, "expected_seq": game.head_seq}
        answer = client.post(f"/api/bot/game/{game.id}/move/", body, format="json")
        assert answer.status_code == 201, answer.json()
        return answer.json()["head_seq"]

    async def scenario():
        stream = NdjsonStream(f"/api/bot/game/stream/{game.id}/", await sync_to_async(token)(mover))
        assert await stream.open() == 200
        full = await stream.next_object()
        head = await sync_to_async(post)(full["state"]["legal"][0])
        line = await stream.next_object()
        assert line["type"] == "gameState" and line["seq"] == head
        await stream.close()

    async_to_sync(scenario)()


def test_reopening_with_after_resumes_from_that_seq(make_user):
    ana, bob = make_user("ana"), make_user("bob")
    game = play_out(humans_game([ana, bob]), [ana, bob], moves=3)

    async def scenario():
        stream = NdjsonStream(
            f"/api/bot/game/stream/{game.id}/", await sync_to_async(token)(ana), query="after=2"
        )
        assert await stream.open() == 200
        full = await stream.next_object()
        assert [e["seq"] for e in full["events"]] == list(range(3, game.head_seq + 1))
        assert full["seq"] == game.head_seq
        await stream.close()

    async_to_sync(scenario)()


def test_the_game_stream_ends_after_the_result(make_user):
    ana, bob = make_user("ana"), make_user("bob")
    game = humans_game([ana, bob])

    async def scenario():
        stream = NdjsonStream(f"/api/bot/game/stream/{game.id}/", await sync_to_async(token)(ana))
        assert await stream.open() == 200
        full = await stream.next_object()
        # The game is played in a thread of its own, as another request would play it
        # (its connection back to the pool after, as Channels' wrapper does): the stream's
        # reads run on this test's thread meanwhile (games/api/stream_handoff.py).
        await database_sync_to_async(play_out, thread_sensitive=False)(game, [ana, bob])
        lines = await stream.rest()
        assert lines[-1]["type"] == "gameState" and lines[-1]["status"] == "finished"
        seqs = [e["seq"] for line in lines for e in line["events"]]
        finished = await sync_to_async(selectors.get_game)(game.id)
        assert seqs == list(range(full["seq"] + 1, finished.head_seq + 1))
        assert lines[-1]["view"]["finished"] is True

    async_to_sync(scenario)()


def test_a_finished_games_stream_sends_its_last_state_and_ends(make_user):
    ana, bob = make_user("ana"), make_user("bob")
    game = play_out(humans_game([ana, bob]), [ana, bob])

    async def scenario():
        stream = NdjsonStream(f"/api/bot/game/stream/{game.id}/", await sync_to_async(token)(bob))
        assert await stream.open() == 200
        lines = await stream.rest()
        assert [line["type"] for line in lines] == ["gameFull"]
        assert lines[0]["state"]["status"] == "finished" and "end" not in lines[0]

    async_to_sync(scenario)()


def test_the_event_stream_tells_a_player_their_game_finished(make_user):
    ana, bob = make_user("ana"), make_user("bob")
    game = humans_game([ana, bob])
    key = token(ana)

    async def scenario():
        stream = NdjsonStream("/api/stream/event/", key)
        assert await stream.open() == 200
        assert (await stream.next_object())["type"] == "gameStart"
        await sync_to_async(play_out)(game, [ana, bob])
        line = await stream.next_object()
        assert line["type"] == "gameFinish"
        assert line["game"]["id"] == str(game.id) and line["game"]["status"] == "finished"
        await stream.close()

    async_to_sync(scenario)()


@pytest.mark.parametrize("accept", ["application/x-ndjson", "application/json", "*/*"])
def test_a_stream_client_may_ask_for_ndjson_or_json(make_user, accept):
    key = token(make_user("ana"))

    async def scenario():
        stream = NdjsonStream("/api/stream/event/", key, accept=accept)
        assert await stream.open() == 200
        assert stream.headers[b"Content-Type"] == b"application/x-ndjson"
        await stream.close()
        refused = NdjsonStream("/api/stream/event/", accept=accept)
        assert await refused.open() in (401, 403)
        assert (await refused.body())["code"] == "not_authenticated"

    async_to_sync(scenario)()


def test_a_player_out_of_time_is_announced_as_gone(make_user):
    ana, bob = make_user("ana"), make_user("bob")
    game = humans_game([ana, bob], time_control={"kind": "realtime", "minutes": 5})
    (late,) = to_act(game)
    waiting = next(u for u in (ana, bob) if game.seats.get(user=u).number != late)
    key = token(waiting)

    async def scenario():
        stream = NdjsonStream(f"/api/bot/game/stream/{game.id}/", key)
        assert await stream.open() == 200
        full = await stream.next_object()
        assert full["state"]["clock"]["running"]
        later = timezone.now() + timedelta(minutes=6)
        await sync_to_async(services.game_timeouts)(game_id=game.id, now=later)
        state = await stream.next_object()
        assert state["type"] == "gameState" and state["clock"]["timed_out"] == [late]
        gone = await stream.next_object()
        assert gone == {"type": "opponentGone", "seq": state["seq"], "seat": late, "gone": True}
        await stream.close()

    async_to_sync(scenario)()


def test_revoking_the_token_ends_its_streams(make_user):
    ana = make_user("ana")
    game = humans_game([ana, make_user("bob")])
    key = token(ana)

    async def scenario():
        events = NdjsonStream("/api/stream/event/", key)
        playing = NdjsonStream(f"/api/bot/game/stream/{game.id}/", key)
        assert await events.open() == 200 and await playing.open() == 200
        assert (await playing.next_object())["type"] == "gameFull"
        await sync_to_async(players_services.token_revoke)(user=ana)
        assert [line["type"] for line in await events.rest()] == ["gameStart"]
        assert await playing.rest() == []

    async_to_sync(scenario)()
