"""The game stream: each audience's update computed once by the writer
(games/publishing/news.py) and sent by every socket of that audience, exactly what the
REST API gives that viewer."""

from __future__ import annotations

import threading
from typing import Any

import pytest
from asgiref.sync import async_to_sync, sync_to_async
from channels.routing import URLRouter
from channels.testing import WebsocketCommunicator
from django.contrib.auth.models import AnonymousUser
from django.db import connections
from rest_framework.test import APIClient

from community import services as community_services
from games import selectors, services
from games.publishing import news
from games.sockets.routing import websocket_urlpatterns
from tests.games.helpers import humans_game, make_moderator, play_out, to_act

pytestmark = pytest.mark.django_db(transaction=True)
app = URLRouter(websocket_urlpatterns)


class Sockets:
    """Open game sockets, each with the user it belongs to and its last frame."""

    def __init__(self, game_id, users: list) -> None:
        self.path = f"/ws/games/{game_id}/?after=0"
        self.users = users
        self.sockets: list[WebsocketCommunicator] = []
        self.last: list[dict[str, Any]] = []

    async def open(self) -> None:
        for user in self.users:
            ws = WebsocketCommunicator(app, self.path)
            ws.scope["user"] = user
            connected, _ = await ws.connect()
            assert connected
            self.sockets.append(ws)
            self.last.append(await ws.receive_json_from(timeout=5))

    async def next_frames(self) -> list[dict[str, Any]]:
        self.last = [await ws.receive_json_from(timeout=5) for ws in self.sockets]
        return self.last

    async def until(self, head: int) -> list[list[dict[str, Any]]]:
        """Every socket's frames up to ``head`` (a bot's moves may come in one or more)."""
        seen = []
        for i, ws in enumerate(self.sockets):
            frames = [await ws.receive_json_from(timeout=5)]
            while frames[-1]["head"] < head:
                frames.append(await ws.receive_json_from(timeout=5))
            self.last[i] = frames[-1]
            seen.append(frames)
        return seen

    async def close(self) -> None:
        for ws in self.sockets:
            assert await ws.receive_nothing(timeout=0.05)
            await ws.disconnect()

    def mover(self) -> tuple[Any, dict[str, Any]] | None:
        """A user whose socket offers legal commands, and the first of them."""
        for user, frame in zip(self.users, self.last, strict=True):
            if frame["status"] == "active" and frame["legal"]:
                return user, frame["legal"][0]
        return None


def rest_of(game_id, user, after: int) -> dict[str, Any]:
    """What the REST API gives ``user`` now: events after ``after``, view, legal."""
    client = APIClient()
    if user.is_authenticated:
        client.force_authenticate(user)
    base = f"/api/tables/{game_id}"
    events = client.get(f"{base}/events/?after={after}&limit=1000").json()
    view = client.get(f"{base}/view/").json()
    legal = client.get(f"{base}/legal/").json()
    return {
        "events": events["events"],
        "head": view["seq"],
        "view": view["state"],
        "legal": legal["commands"],
        "your_seat": legal["seat"],
    }


def socket_part(frame: dict[str, Any]) -> dict[str, Any]:
    return {key: frame[key] for key in ("events", "head", "view", "legal", "your_seat")}


@pytest.mark.parametrize(
    ("ruleset", "moves"), [("kingdoms", None), ("kingdom-builder", 12), ("kingdom-cards", 12)]
)
def test_every_viewers_socket_frame_equals_its_rest_events_view_and_legal(
    ruleset, moves, make_user
):
    # Three players, the first with two sockets (they share one cached update), and two
    # spectators (one audience); a whole game of Kingdoms, a dozen moves of the others.
    ana, bob, cy = make_user("ana"), make_user("bob"), make_user("cy")
    game = humans_game([ana, bob, cy], ruleset=ruleset)
    viewers = [ana, ana, bob, cy, AnonymousUser(), AnonymousUser()]

    async def scenario() -> int:
        sockets = Sockets(game.id, viewers)
        await sockets.open()
        played, before = 0, [frame["head"] for frame in sockets.last]
        while (moves is None or played < moves) and (move := sockets.mover()) is not None:
            user, command = move
            await sync_to_async(services.game_submit)(game_id=game.id, user=user, command=command)
            played += 1
            frames = await sockets.next_frames()
            # A second socket of an audience sends the same frame as its first.
            assert socket_part(frames[1]) == socket_part(frames[0])
            assert socket_part(frames[5]) == socket_part(frames[4])
            for i in (0, 2, 3, 4):
                rest = await sync_to_async(rest_of)(game.id, viewers[i], before[i])
                assert socket_part(frames[i]) == rest
            before = [frame["head"] for frame in frames]
        await sockets.close()
        return played

    played = async_to_sync(scenario)()
    game.refresh_from_db()
    assert played >= (moves or 1)
    assert moves is not None or game.status == "finished"


class QueryCount:
    """Counts the queries of the game stream (everything but the writer's) on the
    connection the test's sync code and the consumers share."""

    def __init__(self) -> None:
        self.writing = threading.local()
        self.fanout = 0

    def __call__(self, execute, sql, params, many, context):
        if not getattr(self.writing, "on", False):
            self.fanout += 1
        return execute(sql, params, many, context)

    def submit(self, game_id, user, command) -> None:
        self.writing.on = True
        try:
            services.game_submit(game_id=game_id, user=user, command=command)
        finally:
            self.writing.on = False


def fanout_queries_per_move(game_id, viewers: list, moves: int) -> float:
    count = QueryCount()

    async def scenario() -> float:
        sockets = Sockets(game_id, viewers)
        await sockets.open()
        await sync_to_async(lambda: connections["default"].execute_wrappers.append(count))()
        try:
            for _ in range(moves):
                user, command = sockets.mover()
                await sync_to_async(count.submit)(game_id, user, command)
                await sockets.next_frames()
        finally:
            await sync_to_async(lambda: connections["default"].execute_wrappers.remove(count))()
        await sockets.close()
        return count.fanout / moves

    return async_to_sync(scenario)()


def test_a_moves_published_frames_cost_every_socket_no_query(make_user):
    # The writer computed every audience's update (games/publishing/news.py): players'
    # and spectators' sockets only splice their frames, however many there are.
    ana, bob = make_user("ana"), make_user("bob")
    game = humans_game([ana, bob])
    viewers = [ana, bob, *[AnonymousUser()] * 3] * 2
    assert fanout_queries_per_move(game.id, viewers, moves=6) == 0


def test_without_published_updates_every_socket_reads_what_the_rest_api_gives(
    make_user, monkeypatch
):
    # The read path (a head published without updates, a socket that missed one).
    monkeypatch.setattr(news, "for_head", lambda *args: None)
    ana, bob = make_user("ana"), make_user("bob")
    game = humans_game([ana, bob])
    viewers = [ana, bob, AnonymousUser()]

    async def scenario() -> None:
        sockets = Sockets(game.id, viewers)
        await sockets.open()
        before = [frame["head"] for frame in sockets.last]
        for _ in range(6):
            user, command = sockets.mover()
            await sync_to_async(services.game_submit)(game_id=game.id, user=user, command=command)
            frames = await sockets.next_frames()
            for i, viewer in enumerate(viewers):
                rest = await sync_to_async(rest_of)(game.id, viewer, before[i])
                assert socket_part(frames[i]) == rest
            before = [frame["head"] for frame in frames]
        await sockets.close()

    async_to_sync(scenario)()


def head_of(game) -> int:
    game.refresh_from_db()
    return game.head_seq


def spectators_frame_at(game, head: int) -> dict[str, Any]:
    return {
        "head": head,
        "view": selectors.view_at(game, None, head)["state"],
        "legal": [],
        "your_seat": None,
    }


def assert_a_spectators_frames(game, frames: list[dict]) -> None:
    for frame in frames:
        seen = {key: frame[key] for key in ("head", "view", "legal", "your_seat")}
        assert seen == spectators_frame_at(game, frame["head"])
        rows = {r.seq: r for r in game.events.all()}
        for event in frame["events"]:
            assert event["data"] == selectors.redact(rows[event["seq"]], None)["data"]


def test_every_socket_of_a_player_who_resigns_gets_a_spectators_frames_from_then_on(
    make_user,
):
    ana, bob, cy = make_user("ana"), make_user("bob"), make_user("cy")
    game = humans_game([ana, bob, cy])
    viewers = [ana, ana, bob, AnonymousUser()]

    async def scenario() -> list[list[dict]]:
        sockets = Sockets(game.id, viewers)
        await sockets.open()
        assert sockets.last[0]["your_seat"] is not None
        await sync_to_async(services.game_resign)(game_id=game.id, user=ana)
        await sockets.until(await sync_to_async(head_of)(game))
        await sync_to_async(play_out)(game, [bob, cy], moves=2)
        seen = await sockets.until(await sync_to_async(head_of)(game))
        await sockets.close()
        return seen

    seen = async_to_sync(scenario)()
    # The resignation's own frame first, then moves: every frame to either of ana's
    # sockets is a spectator's, and the last one equals the spectator socket's.
    for frames in (seen[0], seen[1]):
        assert_a_spectators_frames(game, frames)
        assert socket_part(frames[-1]) == socket_part(seen[3][-1])


def test_a_banned_players_sockets_get_no_seat_secrets_even_before_the_kick_lands(make_user):
    # The ban deactivates the account first and kicks it from its games after: a move
    # in between already reaches that account's sockets as a spectator's frame.
    ana, bob, cy = make_user("ana"), make_user("bob"), make_user("cy")
    mod = make_moderator(make_user("mod"))
    game = humans_game([ana, bob, cy])
    viewers = [bob, bob, AnonymousUser()]
    bob_seat = game.seats.get(user=bob).number

    def not_bobs_turn() -> int:
        while to_act(game) == {bob_seat}:
            play_out(game, [bob], moves=1)
        return head_of(game)

    def someone_else_moves() -> int:
        play_out(game, [ana, cy], moves=1)
        return head_of(game)

    def deactivate() -> None:
        type(bob).objects.filter(pk=bob.pk).update(is_active=False)

    async def scenario() -> list[list[dict]]:
        sockets = Sockets(game.id, viewers)
        await sockets.open()
        assert sockets.last[0]["your_seat"] == bob_seat
        head = await sync_to_async(not_bobs_turn)()
        if head > sockets.last[0]["head"]:
            await sockets.until(head)
        await sync_to_async(deactivate)()
        seen = await sockets.until(await sync_to_async(someone_else_moves)())
        await sync_to_async(community_services.account_ban)(
            player=bob, moderator=mod, reason="cheating"
        )
        later = await sockets.until(await sync_to_async(head_of)(game))
        await sockets.close()
        return [s + t for s, t in zip(seen, later, strict=True)]

    seen = async_to_sync(scenario)()
    for frames in (seen[0], seen[1]):
        assert_a_spectators_frames(game, frames)
        assert socket_part(frames[-1]) == socket_part(seen[2][-1])
