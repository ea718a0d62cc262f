"""Decide by doing: events are folded into a scratch copy as they are emitted.

``decide`` must not mutate the state it is given, yet later consequences of a command (a
tile taken after a build, the next turn after the last action) depend on the earlier ones.
The emitter keeps a private copy, evolves it with each event and collects the events.
"""

from __future__ import annotations

from typing import Any

from games.rules.base import Event
from games.rules.kingdom_builder.state import State, copy_state, evolve


class Emitter:
    def __init__(self, state: State | None) -> None:
        self.state: State = copy_state(state) if state is not None else None  # type: ignore[assignment]
        self.events: list[Event] = []

    def emit(
        self, kind: str, public: dict[str, Any], private: dict[int, dict[str, Any]] | None = None
    ) -> Event:
        event = Event(kind, public, private or {})
        self.state = evolve(self.state, event)
        self.events.append(event)
        return event
