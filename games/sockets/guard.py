"""What every socket of the service refuses before a message reaches its consumer.

- Hostile text (not JSON, nested too deep, NUL or lone surrogates, too long) gets an
  ``error`` message back instead of crashing the consumer; the socket stays open.
- A client that sends faster than ``FRAMES_PER_SECOND`` beyond a burst of ``FRAME_BURST``
  is closed (``TOO_FAST``): each frame may cost a read and a frame back, and no page
  sends more than a few a second.
- A socket opened as a session or an API client closes when that ends (a logout, a
  revoked token, a deactivated account): ``signed_out``.

Messages are handled by Channels' own dispatch, one at a time, so a client that sends
faster than the server answers waits on its own connection (the server's bounded
per-socket queue), not in the server's memory.
"""

from __future__ import annotations

import json
import time
from typing import Any

from channels.generic.websocket import AsyncJsonWebsocketConsumer

from games import json_input, json_output, publishing

# Longest message a client sends (a chat line is at most 500 characters).
MAX_MESSAGE_CHARS = 8 * 1024
FRAMES_PER_SECOND = 20.0
FRAME_BURST = 40.0
# The close code when what a socket was opened as ended: its session logged out, its
# API token was revoked or its account deactivated (as a refused ticket: sign in again).
SIGNED_OUT = 4401
TOO_FAST = 4429


class GuardedJsonConsumer(AsyncJsonWebsocketConsumer):
    sign_in: str | None = None  # publishing.sign_in_group: closed when it signs out
    account: str | None = None  # publishing.account_group: closed when it is deactivated

    async def websocket_connect(self, message: dict[str, Any]) -> None:
        self._allowance = FRAME_BURST
        self._counted_at = time.monotonic()
        self.sign_in = publishing.sign_in_group(self.scope)
        user = self.scope.get("user")
        if user is not None and user.is_authenticated:
            self.account = publishing.account_group(user.pk)
        for group in (self.sign_in, self.account):
            if group is not None:
                await self.channel_layer.group_add(group, self.channel_name)
        await super().websocket_connect(message)

    async def websocket_disconnect(self, message: dict[str, Any]) -> None:
        for group in (self.sign_in, self.account):
            if group is not None:
                await self.channel_layer.group_discard(group, self.channel_name)
        await super().websocket_disconnect(message)

    async def signed_out(self, message: dict[str, Any]) -> None:
        await self.close(code=SIGNED_OUT)

    async def match_found(self, message: dict[str, Any]) -> None:
        """(For the lobby's socket, which takes a quick match's player to the table.)"""

    @classmethod
    async def encode_json(cls, content: Any) -> str:
        return json_output.encode(content)

    def _within_rate(self) -> bool:
        now = time.monotonic()
        elapsed, self._counted_at = now - self._counted_at, now
        self._allowance = min(FRAME_BURST, self._allowance + elapsed * FRAMES_PER_SECOND)
        if self._allowance < 1:
            return False
        self._allowance -= 1
        return True

    async def receive(
        self, text_data: str | None = None, bytes_data: bytes | None = None, **kwargs: Any
    ) -> None:
        if not self._within_rate():
            await self.close(code=TOO_FAST)
            return
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
