"""GameConsumer.dispatch (games/sockets/consumers.py): a frame from the client and a
head's news are handled without Channels' per-message connection check (a thread
hand-off that does nothing for them); every other message keeps it."""

from __future__ import annotations

from typing import Any

import pytest
from channels import consumer as channels_consumer

from games.sockets.consumers import GameConsumer


@pytest.fixture
def checks(monkeypatch) -> list[None]:
    """One item per connection check Channels runs."""
    seen: list[None] = []

    async def counted() -> None:
        seen.append(None)

    monkeypatch.setattr(channels_consumer, "aclose_old_connections", counted)
    return seen


async def test_news_and_client_frames_skip_the_check_other_messages_keep_it(checks):
    socket = GameConsumer()
    handled: list[str] = []

    async def handle(message: dict[str, Any]) -> None:
        handled.append(message["type"])

    socket.game_advanced = handle  # type: ignore[method-assign]
    socket.websocket_receive = handle  # type: ignore[method-assign]
    socket.game_closed = handle  # type: ignore[method-assign]
    checked = {}
    for kind in ("game.advanced", "websocket.receive", "game.closed"):
        before = len(checks)
        await socket.dispatch({"type": kind})
        checked[kind] = len(checks) - before
    assert handled == ["game.advanced", "websocket.receive", "game.closed"]
    assert checked == {"game.advanced": 0, "websocket.receive": 0, "game.closed": 1}


async def test_a_message_without_a_handler_is_still_refused():
    with pytest.raises(ValueError):
        await GameConsumer().dispatch({"type": "no.such.message"})
