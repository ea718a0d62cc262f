"""Telling chat sockets that a line was posted or hidden (after commit only).

Messages carry only a message id: the consumer reads the line back from the store, so a
line hidden meanwhile is never sent.
"""

from __future__ import annotations

import uuid
from typing import Any

from games.publishing import send_to_group


def chat_group(game_id: uuid.UUID | str) -> str:
    return f"chat.{game_id}"


def chat_posted(game_id: uuid.UUID, message_id: int) -> None:
    """Chat consumers read the message back from the store (it may be hidden meanwhile)."""
    send_to_group(chat_group(game_id), {"type": "chat.posted", "message": message_id})


def chat_hidden(game_id: uuid.UUID, message_id: int) -> None:
    send_to_group(chat_group(game_id), {"type": "chat.hidden", "message": message_id})


class ChatLines:
    """The bot API's game stream's chat (games/selectors/sources.py ``ChatSource``)."""

    def group(self, game_id: Any) -> str:
        return chat_group(game_id)

    def line(self, message: dict[str, Any]) -> dict[str, Any] | None:
        from community import selectors

        found = selectors.chat_message(int(message["message"]))
        if found is None or found.hidden:
            return None
        return selectors.chat_message_json(found)


CHAT_LINES = ChatLines()
