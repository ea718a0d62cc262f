"""A command and its refusal: the two names both ``base`` (the ruleset contract) and
``shapes`` (checking what a command carries) need, here so neither imports the other."""

from __future__ import annotations

from typing import Any

Command = dict[str, Any]


class IllegalCommand(Exception):
    """A command the rules refuse; ``code`` is stable, ``message`` is for the player."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message

    def __repr__(self) -> str:
        return f"IllegalCommand({self.code!r}, {self.message!r})"
