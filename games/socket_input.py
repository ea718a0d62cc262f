"""The WebSocket consumers' JSON decoding: hostile text (not JSON, nested too deep, NUL
or lone surrogates, too long) gets an ``error`` message back instead of crashing the
consumer, and the socket stays open for the next message."""

from __future__ import annotations

import contextlib
import functools
import json
from typing import Any

from channels.consumer import get_handler_name
from channels.exceptions import StopConsumer
from channels.generic.websocket import AsyncJsonWebsocketConsumer
from channels.layers import get_channel_layer

from games import json_input, json_output, publish
from games.socket_dispatch import dispatch_in_arrival_order

# Longest message a client sends (a chat line is at most 500 characters).
MAX_MESSAGE_CHARS = 8 * 1024
# The close code when what a socket was opened as ended: its session logged out, or its
# API token was revoked (as a refused ticket: sign in again).
SIGNED_OUT = 4401


class GuardedJsonConsumer(AsyncJsonWebsocketConsumer):
    sign_in: str | None = None  # publish.sign_in_group: closed when it signs out

    async def websocket_connect(self, message: dict[str, Any]) -> None:
        await super().websocket_connect(message)
        self.sign_in = publish.sign_in_group(self.scope)
        if self.sign_in is not None:
            await self.channel_layer.group_add(self.sign_in, self.channel_name)

    async def websocket_disconnect(self, message: dict[str, Any]) -> None:
        if self.sign_in is not None:
            await self.channel_layer.group_discard(self.sign_in, self.channel_name)
        await super().websocket_disconnect(message)

    async def signed_out(self, message: dict[str, Any]) -> None:
        await self.close(code=SIGNED_OUT)

    async def __call__(self, scope: dict, receive: Any, send: Any) -> None:
        """Channels' ``AsyncConsumer.__call__``, its messages dispatched by
        games/socket_dispatch.py rather than ``await_many_dispatch``."""
        self.scope = scope
        self.channel_layer = get_channel_layer(self.channel_layer_alias)
        sources = [receive]
        if self.channel_layer is not None:
            self.channel_name = await self.channel_layer.new_channel()
            self.channel_receive = functools.partial(self.channel_layer.receive, self.channel_name)
            sources.append(self.channel_receive)
        self.base_send = send
        with contextlib.suppress(StopConsumer):
            await dispatch_in_arrival_order(sources, self.dispatch)

    async def dispatch(self, message: dict[str, Any]) -> None:
        """Channels' dispatch without its ``aclose_old_connections`` before every message:
        a hop to the database thread and back for each socket on each move. These
        consumers touch the database only through ``database_sync_to_async`` (which
        closes old connections itself, before and after) or a worker thread that
        closes its own, never in the event loop."""
        handler = getattr(self, get_handler_name(message), None)
        if handler is None:
            raise ValueError(f"No handler for message type {message['type']}")
        await handler(message)

    @classmethod
    async def encode_json(cls, content: Any) -> str:
        return json_output.encode(content)

    async def receive(
        self, text_data: str | None = None, bytes_data: bytes | None = None, **kwargs: Any
    ) -> None:
        if text_data is None:
            await self._refuse("bad_frame", "Send JSON text frames.")
            return
        if len(text_data) > MAX_MESSAGE_CHARS:
            await self._refuse(
                "bad_frame", f"A message holds at most {MAX_MESSAGE_CHARS} characters."
            )
            return
        try:
            content = json.loads(text_data)
        except RecursionError:
            content = json_input.TOO_DEEP
        except ValueError:
            await self._refuse("bad_frame", "That message is not JSON.")
            return
        problem = json_input.problem(content)
        if problem is not None:
            await self._refuse(problem.code, problem.message)
            return
        await self.receive_json(content, **kwargs)

    async def _refuse(self, code: str, message: str) -> None:
        await self.send_json({"type": "error", "code": code, "message": message})
