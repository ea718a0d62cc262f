"""WebSocket consumers: the game stream and the lobby stream (chat: community).

A game's group message (``game.advanced``) carries each audience's update, computed once
by the writer (games/publishing/news.py): a socket sends its own audience's part, on its
event loop, with no thread hand-off and no database. A socket that opens, asks to
``resync``, or finds that it missed a message reads the events after its last seq
through the read path instead, so a lost message costs latency only.
Moves sent on the socket take the one way in for a move (games/api/moves.py) in one
thread hand-off; the write's notices are then published from the socket's own loop.
"""

from __future__ import annotations

import functools
from typing import Any
from urllib.parse import parse_qs

from channels.consumer import get_handler_name
from channels.db import database_sync_to_async
from django.db import connections

from games import presence, publishing, selectors
from games.api import moves
from games.errors import ServiceError
from games.publishing import news
from games.services import Submitted, account_news, matchmaking
from games.sockets.guard import SIGNED_OUT, GuardedJsonConsumer

in_worker_thread = functools.partial(database_sync_to_async, thread_sensitive=False)


class GameConsumer(GuardedJsonConsumer):
    """One socket on a game: ``resync``, ``ping`` and ``command`` from its client."""

    # Messages whose handlers use no database connection on Channels' shared thread:
    # a frame from the client (its reads and its move each go through
    # database_sync_to_async, which checks its own connection before and after) and a
    # head's news (spliced from the message; a socket that must read does so through
    # database_sync_to_async too).
    NO_DATABASE = frozenset({"websocket.receive", "game.advanced"})

    async def dispatch(self, message: dict[str, Any]) -> None:
        """Channels' dispatch, without its per-message connection check (a thread
        hand-off, ``aclose_old_connections``) for the messages in ``NO_DATABASE``: for
        them it would hand every frame and every viewer's news to a thread for nothing."""
        if message["type"] in self.NO_DATABASE:
            await getattr(self, get_handler_name(message))(message)
        else:
            await super().dispatch(message)

    async def connect(self) -> None:
        publishing.remember_server_loop()
        query = parse_qs(self.scope.get("query_string", b"").decode())
        try:
            self.sent_seq = max(0, int(query.get("after", ["0"])[0]))
        except ValueError:
            self.sent_seq = 0
        self.game_id = self.scope["url_route"]["kwargs"]["game_id"]
        user = self.scope.get("user")
        self.user_id = user.pk if user is not None and user.is_authenticated else None
        # A bot account plays through the API only (games/api/moves.py): a socket opened
        # with a ticket its API token minted is the API; a browser session's is not. Once
        # a move of this socket's account is recorded the account is known to be a
        # person's for good (one that has sat at a table never becomes a bot account:
        # players.services.bot_upgrade), and its moves skip the look-up.
        api_client = self.scope.get("ticketed") and not self.scope.get("session_group")
        self.may_be_a_bot_on_the_web = not api_client
        try:
            await self._head()
        except ServiceError:
            await self.close(code=4404)
            return
        self.group = publishing.game_group(self.game_id)
        await self.channel_layer.group_add(self.group, self.channel_name)
        await self.accept()
        await presence.page_seen(self.game_id, self.user_id)
        await self._send_read(fresh=True)

    async def disconnect(self, code: int) -> None:
        if hasattr(self, "group"):
            await self.channel_layer.group_discard(self.group, self.channel_name)
            await presence.page_closed(self.game_id, self.user_id)

    async def receive_json(self, content: Any, **kwargs: Any) -> None:
        kind = content.get("type") if isinstance(content, dict) else None
        if kind in {"resync", "ping"}:
            # The client's heartbeat renews the group memberships: the list layer forgets
            # every group when Redis restarts empty (and expires them after a day), which
            # would leave this open socket without news (or a logout's close) for good.
            for group in (self.group, self.sign_in, self.account):
                if group is not None:
                    await self.channel_layer.group_add(group, self.channel_name)
            # ...and tells the "your turn" email this player is here (games/presence.py).
            await presence.page_seen(self.game_id, self.user_id)
        if kind == "resync":
            after = content.get("after")
            if isinstance(after, int) and after >= 0:
                self.sent_seq = min(self.sent_seq, after)
            await self._send_read(fresh=True)
        elif kind == "ping":
            # The head lets a quiet client notice a lost notice without waiting for more.
            await self.send_json({"type": "pong", "head": await self._head()})
        elif kind == "command":
            await self._command(content)
        else:
            await self.send_json(
                {
                    "type": "error",
                    "code": "unknown_message",
                    "message": "Send resync, ping or command.",
                }
            )

    async def _command(self, content: dict[str, Any]) -> None:
        """``{"type": "command", "command": {...}, "expected_seq"?, "command_id"?, "ref"?}``:
        answered by ``accepted`` (riding in the mover's own events frame when the write's
        update for this socket is at hand) or by ``error`` with the HTTP status."""
        ref = content.get("ref")
        if not isinstance(ref, str | int | None) or (isinstance(ref, str) and len(ref) > 100):
            ref = None
        body = {k: v for k, v in content.items() if k not in {"type", "ref"}}
        try:
            result = await self._move(body)
        except Exception as exc:
            refused = moves.refused(exc)
            await self.send_json(
                {"type": "error", "ref": ref, "status": refused.status, **refused.body}
            )
            return
        # Committed: the other viewers' news goes out from this loop, then the answer.
        await publishing.asend(result.notices)
        accepted = {"ref": ref, "head_seq": result.head_seq, "replayed": result.replayed}
        if (
            result.news is not None
            and not result.replayed
            and await self._deliver_news(result.news, result.head_seq, accepted)
        ):
            return
        await self.send_json({"type": "accepted", **accepted})

    async def game_advanced(self, message: dict[str, Any]) -> None:
        head = message.get("head", 0)
        if head <= self.sent_seq:
            return
        published = message.get("news")
        if published is None or not await self._deliver_news(published, head):
            await self._send_read(fresh=False)

    async def game_rematch(self, message: dict[str, Any]) -> None:
        """A player of this finished game opened a rematch: the table and its host."""
        await self.send_json({"type": "rematch", "rematch": message["rematch"]})

    async def game_closed(self, message: dict[str, Any]) -> None:
        """Server-side close (moderation, tests of client recovery)."""
        await self.close(code=4000)

    async def _deliver_news(
        self, published: dict[str, Any], head: int, accepted: dict[str, Any] | None = None
    ) -> bool:
        """Send this socket's part of a head's published news; False: it must read."""
        if head <= self.sent_seq:
            return False
        part = news.frame_from(published, head, self.user_id, self.sent_seq)
        if part is None:
            return False
        self.seat, frame, last_seq = part
        if frame is None or last_seq is None:
            return False
        await self.send(text_data=frame if accepted is None else news.answered(frame, accepted))
        self.sent_seq = last_seq
        return True

    async def _send_read(self, fresh: bool) -> None:
        self.seat, frame, last_seq = await self._read(fresh)
        if frame is not None:
            await self.send(text_data=frame)
        if last_seq is not None:
            self.sent_seq = last_seq

    # A move runs in its own worker thread, not in Channels' one thread shared by every
    # socket's database work: there, each move would wait for every other socket's reads.
    @in_worker_thread
    def _move(self, body: dict[str, Any]) -> Submitted:
        try:
            user, web = self.scope.get("user"), self.may_be_a_bot_on_the_web
            result = moves.move(self.game_id, user, body, from_the_web=web)
            self.may_be_a_bot_on_the_web = False
            return result
        finally:
            # Back to the pool at once: the worker thread may idle long after the move.
            connections.close_all()

    @database_sync_to_async
    def _head(self) -> int:
        return selectors.get_game(self.game_id).head_seq

    @database_sync_to_async
    def _read(self, fresh: bool) -> tuple[int | None, str | None, int | None]:
        return news.read_frame(self.game_id, self.user_id, self.sent_seq, fresh=fresh)


class TurnsConsumer(GuardedJsonConsumer):
    """``/ws/turns/``: a signed-in player's games in progress and whether it is their turn
    in each, for the count beside the navigation's lobby link on every page: ``turns``
    when it opens, then a ``turn`` at each new head of one of them (read from the head's
    news: no database) and when one of theirs starts (the account's ``gameStart``,
    games/services/account_news.py: one read). An anonymous socket is closed as signed
    out. Opening or closing it is no visit to the lobby: it joins no lobby group, is
    counted nowhere and leaves the player's quick match alone."""

    user_id: int | None = None

    async def dispatch(self, message: dict[str, Any]) -> None:
        """Channels' dispatch, without its per-message connection check for a head's news
        (as GameConsumer's): the turn is read from the message's ``to_act``."""
        if message["type"] == "game.advanced":
            await self.game_advanced(message)
        else:
            await super().dispatch(message)

    async def connect(self) -> None:
        publishing.remember_server_loop()
        await self.accept()
        if not await self._open_turns():
            await self.close(code=SIGNED_OUT)

    async def disconnect(self, code: int) -> None:
        if self.user_id is not None:
            await self.channel_layer.group_discard(
                account_news.events_group(self.user_id), self.channel_name
            )
        for game_id in getattr(self, "playing", set()):
            await self.channel_layer.group_discard(
                publishing.game_group(game_id), self.channel_name
            )

    async def _open_turns(self) -> bool:
        """Follow a signed-in player's games and send their turns; False: anonymous."""
        user = self.scope.get("user")
        self.playing: set[str] = set()
        if user is None or not user.is_authenticated:
            return False
        self.user_id = user.pk
        # Before the read: a game that starts meanwhile is announced, not missed.
        await self.channel_layer.group_add(
            account_news.events_group(self.user_id), self.channel_name
        )
        turns = await self._turns()
        for game_id in turns:
            await self._follow(game_id)
        # Read again now that the games' news is heard: a move made between the first read
        # and the follow would otherwise be in neither (the second read costs one query).
        turns = await self._turns()
        for game_id in turns:
            await self._follow(game_id)
        await self.send_json({"type": "turns", "turns": turns})
        return True

    async def game_advanced(self, message: dict[str, Any]) -> None:
        published, game_id = message.get("news"), message.get("game")
        if not published or game_id not in self.playing:
            return
        seat = dict(published["viewers"]).get(self.user_id)
        # A player who left the table (resigned, timed out) has no turn there any more,
        # as nobody has in a game that is over. .get: news from a process that predates
        # "to_act" (a rolling deploy) says no turn.
        playing = published["status"] == "active" and seat is not None
        yours = playing and seat in published.get("to_act", ())
        await self.send_json({"type": "turn", "game": game_id, "yours": yours})
        if not playing:
            self.playing.discard(game_id)
            await self.channel_layer.group_discard(
                publishing.game_group(game_id), self.channel_name
            )

    async def account_event(self, message: dict[str, Any]) -> None:
        """A game of this player's started: follow its heads, and say whose turn it is
        (its first head's news went out before this line, so it is read once)."""
        line = message.get("line") or {}
        game_id = (line.get("game") or {}).get("id")
        if line.get("type") != "gameStart" or not isinstance(game_id, str):
            return
        # Followed before the read: a head after it comes as news, newer than the read.
        await self._follow(game_id)
        turns = await self._turns()
        if game_id in turns:
            await self.send_json({"type": "turn", "game": game_id, "yours": turns[game_id]})

    async def game_rematch(self, message: dict[str, Any]) -> None:
        """(For the game's own sockets.)"""

    async def game_closed(self, message: dict[str, Any]) -> None:
        """(For the game's own sockets.)"""

    async def _follow(self, game_id: str) -> None:
        if game_id not in self.playing:
            self.playing.add(game_id)
            await self.channel_layer.group_add(publishing.game_group(game_id), self.channel_name)

    @database_sync_to_async
    def _turns(self) -> dict[str, bool]:
        return selectors.turns_of(self.scope["user"])


class LobbyConsumer(TurnsConsumer):
    """The lobby: its open tables as they change, the players' counts, a quick match's
    table; for a signed-in player also their turns, as on every page (TurnsConsumer).
    Closing it stops the player's quick match (games/services/matchmaking.py)."""

    async def connect(self) -> None:
        publishing.remember_server_loop()
        await self.channel_layer.group_add(publishing.LOBBY_GROUP, self.channel_name)
        await self.accept()
        await self._open_turns()  # an anonymous visitor sees the tables only

    async def disconnect(self, code: int) -> None:
        await self.channel_layer.group_discard(publishing.LOBBY_GROUP, self.channel_name)
        await super().disconnect(code)
        if self.user_id is not None:
            # Who leaves the lobby stops looking for a game (games/services/matchmaking.py).
            await self._stop_looking()

    async def lobby_changed(self, message: dict[str, Any]) -> None:
        summary = await self._summary(message["game"])
        if summary is not None:
            await self.send_json({"type": "table", "table": summary})

    async def match_found(self, message: dict[str, Any]) -> None:
        """A quick match seated this player (games/services/matchmaking.py)."""
        await self.send_json({"type": "matched", "table": message["table"]})

    async def lobby_counts(self, message: dict[str, Any]) -> None:
        """Players at tables and looking, per game, as the writer counted them."""
        await self.send_json({"type": "counts", "counts": message["counts"]})

    @database_sync_to_async
    def _stop_looking(self) -> None:
        if self.user_id is not None:
            matchmaking.quick_match_drop(user_id=self.user_id)

    @database_sync_to_async
    def _summary(self, game_id: str) -> dict[str, Any] | None:
        try:
            return selectors.table_summary(selectors.get_game(game_id))
        except ServiceError:
            return None
