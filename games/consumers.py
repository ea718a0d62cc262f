"""WebSocket consumers: the game stream and the lobby stream (chat: community).

A move's group message carries each seated player's update, computed once by the writer
(games/pushed_news.py): a player's consumer sends its own seat's part. Otherwise (a
spectator, other writes, a missed message) the consumer sends the events after the last seq it sent,
redacted for its own viewer (computed once per audience and head in the process:
games/fanout.py). A dropped message is made good by the next one (or by the client
asking by seq).
"""

from __future__ import annotations

import functools
import logging
from typing import Any
from urllib.parse import parse_qs

from channels.db import database_sync_to_async
from django.db import connections

from games import fanout, publish, pushed_news, selectors, socket_commands
from games.api.errors import BUSY, SERVER_ERROR, pool_exhausted
from games.errors import ServiceError
from games.services import Submitted
from games.services.own_heads import own_heads
from games.socket_input import GuardedJsonConsumer

log = logging.getLogger(__name__)
# A move sent on a socket runs in a worker thread, not in Channels' one thread for every
# socket's database work (thread_sensitive): there, each move waited for every other
# socket's commit. The fan-out's reads stay in that one thread (fanout.news, cheap).
in_worker_thread = functools.partial(database_sync_to_async, thread_sensitive=False)


class GameConsumer(GuardedJsonConsumer):
    """One socket on a game. Its frames come from games/fanout.py: computed once per
    (game, head, viewer seat) in the process and shared by every socket of that audience.
    """

    async def connect(self) -> None:
        publish.remember_server_loop()
        query = parse_qs(self.scope.get("query_string", b"").decode())
        try:
            self.sent_seq = max(0, int(query.get("after", ["0"])[0]))
        except ValueError:
            self.sent_seq = 0
        self.game_id = self.scope["url_route"]["kwargs"]["game_id"]
        user = self.scope.get("user")
        self.user_id = user.pk if user is not None and user.is_authenticated else None
        try:
            await self._head()
        except ServiceError:
            await self.close(code=4404)
            return
        self.group = publish.game_group(self.game_id)
        fanout.watch(self.game_id, self.channel_name, self.user_id)
        await self.channel_layer.group_add(self.group, self.channel_name)
        await self.accept()
        await self._send_news(fresh=True)

    async def disconnect(self, code: int) -> None:
        if hasattr(self, "group"):
            fanout.unwatch(self.game_id, self.channel_name)
            await self.channel_layer.group_discard(self.group, self.channel_name)

    async def receive_json(self, content: Any, **kwargs: Any) -> None:
        kind = content.get("type") if isinstance(content, dict) else None
        if kind in {"resync", "ping"}:
            # The client's heartbeat renews the group membership: the list layer forgets
            # every group when Redis restarts empty (and expires them after a day), which
            # would leave this open socket without news (or a logout's close) for good.
            # Pub/sub resubscribes on reconnecting; there the renewal costs a set lookup.
            await self.channel_layer.group_add(self.group, self.channel_name)
            if self.sign_in is not None:
                await self.channel_layer.group_add(self.sign_in, self.channel_name)
        if kind == "resync":
            after = content.get("after")
            if isinstance(after, int) and after >= 0:
                self.sent_seq = min(self.sent_seq, after)
            await self._send_news(fresh=True)
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
        """games/socket_commands.py: a move over the socket, through the one write path."""
        ref = content.get("ref")
        if not isinstance(ref, str | int | None) or (isinstance(ref, str) and len(ref) > 100):
            ref = None
        try:
            result = await self._submit(content)
        except ServiceError as exc:
            await self.send_json(
                {"type": "error", "ref": ref, "status": exc.status, **exc.as_json()}
            )
            return
        except Exception as exc:  # as over HTTP: a busy pool is a 503, the rest a logged 500
            if pool_exhausted(exc):
                await self.send_json({"type": "error", "ref": ref, "status": 503, **BUSY})
                return
            log.exception("a command on the socket of game %s failed", self.game_id)
            await self.send_json({"type": "error", "ref": ref, "status": 500, **SERVER_ERROR})
            return
        accepted = {"ref": ref, "head_seq": result.head_seq, "replayed": result.replayed}
        # Its own write's update goes with the answer; otherwise (a replay, a socket still
        # catching up) the answer goes alone and the events as any move's do.
        news = self._pushed_news(result.head_seq, result.pushed)
        if news is None or news.frame is None:
            await self.send_json({"type": "accepted", **accepted})
        else:
            await self._deliver(news, accepted)

    def _pushed_news(self, head: int, pushed: dict[str, Any] | None) -> fanout.News | None:
        """This socket's part of what the write of ``head`` pushed; None: this socket
        takes the read path (nothing pushed, or it has not sent up to just before)."""
        if pushed is None or head <= self.sent_seq:
            return None
        return pushed_news.news_of(self.game_id, pushed, head, self.user_id, self.sent_seq)

    async def game_advanced(self, message: dict[str, Any]) -> None:
        head = message.get("head", 0)
        own_heads.heard(self.game_id, head, message.get("written"))
        if head <= self.sent_seq:
            return
        news = self._pushed_news(head, message.get("pushed"))
        if news is None:
            await self._send_news(head=head)
        else:
            await self._deliver(news)

    async def game_closed(self, message: dict[str, Any]) -> None:
        """Server-side close (moderation, tests of client recovery)."""
        await self.close(code=4000)

    @in_worker_thread
    def _submit(self, content: dict[str, Any]) -> Submitted:
        try:
            return socket_commands.submit(self.game_id, self.scope.get("user"), content)
        finally:
            # Back to the pool at once: a worker thread may idle long after the move
            # (close_old_connections leaves it open under the test runner, for one).
            connections.close_all()

    @database_sync_to_async
    def _head(self) -> int:
        return selectors.get_game(self.game_id).head_seq

    @database_sync_to_async
    def _news(self, head: int, fresh: bool) -> fanout.News:
        return fanout.news(self.game_id, self.user_id, self.sent_seq, head=head, fresh=fresh)

    async def _send_news(self, head: int = 0, fresh: bool = False) -> None:
        news = (
            None if fresh else fanout.cached_news(self.game_id, self.user_id, self.sent_seq, head)
        )
        if news is None:
            news = await self._news(head, fresh)
        await self._deliver(news)

    async def _deliver(self, news: fanout.News, accepted: dict[str, Any] | None = None) -> None:
        self.seat = news.seat
        if news.frame is not None:
            frame = news.frame if accepted is None else fanout.answered(news.frame, accepted)
            await self.send(text_data=frame)
        if news.last_seq is not None:
            self.sent_seq = news.last_seq


class LobbyConsumer(GuardedJsonConsumer):
    async def connect(self) -> None:
        publish.remember_server_loop()
        await self.channel_layer.group_add(publish.LOBBY_GROUP, self.channel_name)
        await self.accept()

    async def disconnect(self, code: int) -> None:
        await self.channel_layer.group_discard(publish.LOBBY_GROUP, self.channel_name)

    async def lobby_changed(self, message: dict[str, Any]) -> None:
        summary = await self._summary(message["game"])
        if summary is not None:
            await self.send_json({"type": "table", "table": summary})

    @database_sync_to_async
    def _summary(self, game_id: str) -> dict[str, Any] | None:
        try:
            return selectors.table_summary(selectors.get_game(game_id))
        except ServiceError:
            return None
