"""WebSocket consumers: the game stream, the table chat and the lobby stream.

A group message only says "the head moved"; each consumer then reads the events after the
last seq it sent, redacted for its own viewer, so nothing secret crosses the channel layer
and a dropped message is made good by the next one (or by the client asking by seq).
"""

from __future__ import annotations

from typing import Any
from urllib.parse import parse_qs

from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncJsonWebsocketConsumer
from django.contrib.auth import get_user_model
from django.utils import timezone

from games import clocks, publish, selectors, services
from games.errors import ServiceError


class GameConsumer(AsyncJsonWebsocketConsumer):
    async def connect(self) -> None:
        publish.remember_server_loop()
        query = parse_qs(self.scope.get("query_string", b"").decode())
        try:
            self.sent_seq = max(0, int(query.get("after", ["0"])[0]))
        except ValueError:
            self.sent_seq = 0
        self.game_id = self.scope["url_route"]["kwargs"]["game_id"]
        try:
            self.seat = await self._seat()
        except ServiceError:
            await self.close(code=4404)
            return
        self.group = publish.game_group(self.game_id)
        await self.channel_layer.group_add(self.group, self.channel_name)
        await self.accept()
        await self._send_news(force=True)
        # After a restart of the embedded server, timed games need the sweeper again.
        from bots.dispatch import ensure_clock_sweeper

        ensure_clock_sweeper()

    async def disconnect(self, code: int) -> None:
        if hasattr(self, "group"):
            await self.channel_layer.group_discard(self.group, self.channel_name)

    async def receive_json(self, content: Any, **kwargs: Any) -> None:
        kind = content.get("type") if isinstance(content, dict) else None
        if kind == "resync":
            after = content.get("after")
            if isinstance(after, int) and after >= 0:
                self.sent_seq = min(self.sent_seq, after)
            await self._send_news(force=True)
        elif kind == "ping":
            # The head lets a quiet client notice a lost notice without waiting for more.
            await self.send_json({"type": "pong", "head": await self._head()})
        else:
            await self.send_json(
                {"type": "error", "code": "unknown_message", "message": "Send resync or ping."}
            )

    async def game_advanced(self, message: dict[str, Any]) -> None:
        if message.get("head", 0) > self.sent_seq:
            await self._send_news()

    async def game_closed(self, message: dict[str, Any]) -> None:
        """Server-side close (moderation, tests of client recovery)."""
        await self.close(code=4000)

    @database_sync_to_async
    def _seat(self) -> int | None:
        game = selectors.get_game(self.game_id)
        return selectors.viewer_seat(game, self.scope.get("user"))

    def _still_active(self) -> bool:
        user = self.scope.get("user")
        model = get_user_model()
        return user is not None and model.objects.filter(pk=user.pk, is_active=True).exists()

    @database_sync_to_async
    def _head(self) -> int:
        return selectors.get_game(self.game_id).head_seq

    @database_sync_to_async
    def _news(self) -> dict[str, Any] | None:
        game = selectors.get_game(self.game_id)
        if self.seat is None:  # a watcher who joined the table before it started
            self.seat = selectors.viewer_seat(game, self.scope.get("user"))
        elif not self._still_active():
            # Banned while connected: the REST API no longer knows this account, so the
            # stream stops sending its seat's secrets too (a bot plays that seat now).
            self.seat = None
        view = selectors.game_view(game, self.seat)
        events = [
            e
            for e in selectors.events_after(game, self.seat, self.sent_seq, limit=1000)
            if e["seq"] <= view["seq"]
        ]
        return {
            "type": "events",
            "events": events,
            "head": view["seq"],
            "view": view["state"],
            "status": game.status,
            "legal": selectors.legal_commands(game, self.seat),
            "your_seat": self.seat,
            "server_time_ms": clocks.ms_of(timezone.now()),  # for the clocks' deadlines
        }

    async def _send_news(self, force: bool = False) -> None:
        news = await self._news()
        if news["events"] or force:
            await self.send_json(news)
        if news["events"]:
            self.sent_seq = news["events"][-1]["seq"]


class ChatConsumer(AsyncJsonWebsocketConsumer):
    """``/ws/games/<id>/chat/``: anyone may read; a logged-in player may ``say`` and
    ``report``. Group messages carry only a message id: the line is read back from the
    store, so a line hidden meanwhile is never sent."""

    async def connect(self) -> None:
        publish.remember_server_loop()
        self.game_id = self.scope["url_route"]["kwargs"]["game_id"]
        try:
            history = await self._history()
        except ServiceError:
            await self.close(code=4404)
            return
        self.group = publish.chat_group(self.game_id)
        await self.channel_layer.group_add(self.group, self.channel_name)
        await self.accept()
        await self.send_json({"type": "history", "messages": history})

    async def disconnect(self, code: int) -> None:
        if hasattr(self, "group"):
            await self.channel_layer.group_discard(self.group, self.channel_name)

    async def receive_json(self, content: Any, **kwargs: Any) -> None:
        kind = content.get("type") if isinstance(content, dict) else None
        try:
            if kind == "say":
                await self._say(content.get("body"))
            elif kind == "report":
                report = await self._report(content.get("message"), content.get("reason", ""))
                await self.send_json({"type": "reported", "message": report})
            elif kind == "ping":
                await self.send_json({"type": "pong"})
            else:
                await self.send_json(
                    {"type": "error", "code": "unknown_message", "message": "Send say or report."}
                )
        except ServiceError as exc:
            await self.send_json({"type": "error", **exc.as_json()})

    async def chat_posted(self, message: dict[str, Any]) -> None:
        line = await self._line(message["message"])
        if line is not None and not line["hidden"]:
            await self.send_json({"type": "message", "message": line})

    async def chat_hidden(self, message: dict[str, Any]) -> None:
        await self.send_json({"type": "hidden", "message": message["message"]})

    def _user(self) -> Any:
        """A fresh copy of the connected user: a ban applies at once."""
        user = self.scope.get("user")
        if user is None or not user.is_authenticated:
            return None
        return get_user_model().objects.filter(pk=user.pk).first()

    @database_sync_to_async
    def _history(self) -> list[dict[str, Any]]:
        return selectors.chat_history(selectors.get_game(self.game_id))

    @database_sync_to_async
    def _say(self, body: Any) -> None:
        services.chat_post(game_id=self.game_id, user=self._user(), body=body)

    @database_sync_to_async
    def _report(self, message_id: Any, reason: Any) -> int:
        if not isinstance(message_id, int):
            raise ServiceError("bad_message", "Name the message by its id.")
        user = self._user()
        return services.chat_report(message_id=message_id, user=user, reason=str(reason)).pk

    @database_sync_to_async
    def _line(self, message_id: int) -> dict[str, Any] | None:
        message = selectors.chat_message(message_id)
        return selectors.chat_message_json(message) if message else None


class LobbyConsumer(AsyncJsonWebsocketConsumer):
    async def connect(self) -> None:
        publish.remember_server_loop()
        await self.channel_layer.group_add(publish.LOBBY_GROUP, self.channel_name)
        await self.accept()

    async def disconnect(self, code: int) -> None:
        await self.channel_layer.group_discard(publish.LOBBY_GROUP, self.channel_name)

    async def lobby_changed(self, message: dict[str, Any]) -> None:
        table = await self._table(message["game"])
        if table is not None:
            await self.send_json({"type": "table", "table": table})

    @database_sync_to_async
    def _table(self, game_id: str) -> dict[str, Any] | None:
        try:
            return selectors.table_summary(selectors.get_game(game_id))
        except ServiceError:
            return None
