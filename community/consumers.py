"""The table chat's WebSocket: ``/ws/games/<id>/chat/`` (community/routing.py)."""

from __future__ import annotations

from typing import Any

from channels.db import database_sync_to_async
from django.contrib.auth import get_user_model

from community import publish, selectors, services
from games import publishing as game_publish
from games import selectors as game_selectors
from games.api.errors import refusal_or_failure
from games.api.throttling import refuse_if_throttled
from games.errors import ServiceError
from games.sockets.guard import GuardedJsonConsumer


class ChatConsumer(GuardedJsonConsumer):
    """``/ws/games/<id>/chat/``: anyone may read; a logged-in player may ``say`` and
    ``report``. Group messages carry only a message id: the line is read back from the
    store, so a line hidden meanwhile is never sent."""

    async def connect(self) -> None:
        game_publish.remember_server_loop()
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
        except Exception as exc:
            # The API's one mapping, as the game socket's: a service refusal, a rate limit,
            # a store that is down (503) or a logged 500; the socket stays open.
            refused = refusal_or_failure(exc, "a chat message")
            await self.send_json({"type": "error", "status": refused.status, **refused.body})

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
        return selectors.chat_history(game_selectors.get_game(self.game_id))

    @database_sync_to_async
    def _say(self, body: Any) -> None:
        user = self._user()
        if user is not None:  # the same limit as posting through the REST API
            refuse_if_throttled("chat", user)
        services.chat_post(game_id=self.game_id, user=user, body=body)

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
