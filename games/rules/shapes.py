"""Command shapes: what each command of a ruleset may carry, checked before ``decide``
so that the log keeps only declared fields of declared types (pure; no Django)."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from typing import Any

from games.rules.commands import Command, IllegalCommand

# Longest name (tile, terrain, card id) and most names in one list a command may carry;
# every real one is far shorter, and a refusal echoes at most CLIPPED characters of input.
MAX_NAME_LENGTH = 40
MAX_NAMES = 16
CLIPPED = 40


@dataclass(frozen=True)
class CommandField:
    """What one field of a command must hold, as a player reads it ("a whole number")."""

    meaning: str
    accepts: Callable[[Any], bool]
    optional: bool = False


def _is_whole_number(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and -(2**31) <= value < 2**31


def _is_name(value: Any) -> bool:
    # Printable ASCII only: no NUL (PostgreSQL refuses it) and no lone surrogate.
    return (
        isinstance(value, str)
        and 0 < len(value) <= MAX_NAME_LENGTH
        and value.isascii()
        and value.isprintable()
    )


WHOLE_NUMBER = CommandField("a whole number", _is_whole_number)
NAME = CommandField("a name such as a tile, terrain or card id", _is_name)
SPACE = CommandField(
    "a [row, column] pair of whole numbers",
    lambda v: isinstance(v, list | tuple) and len(v) == 2 and all(map(_is_whole_number, v)),
)
NAMES = CommandField(
    f"a list of up to {MAX_NAMES} names",
    lambda v: isinstance(v, list | tuple) and 0 < len(v) <= MAX_NAMES and all(map(_is_name, v)),
)


def optional(field_shape: CommandField) -> CommandField:
    """The same field, which a command of that type may leave out."""
    return replace(field_shape, optional=True)


CommandShapes = Mapping[str, Mapping[str, CommandField]]


def clipped(value: Any, limit: int = CLIPPED) -> str:
    """``repr(value)`` cut to ``limit`` characters, for messages that quote the input."""
    text = repr(value[: limit + 1] if isinstance(value, str) else value)
    return text if len(text) <= limit else text[: limit - 1] + "…"


def validate_command(shapes: CommandShapes, command: Any) -> Command:
    """The command as its declared shape allows it, or IllegalCommand.

    An unknown ``type`` is ``unknown_command`` (as ``command_type`` says it); a missing,
    unknown or ill-typed field is ``bad_command``. The result holds only declared fields.
    """
    if not isinstance(command, dict):
        raise IllegalCommand("bad_command", "A command is a JSON object with a 'type'.")
    kind = command.get("type")
    if not isinstance(kind, str) or kind not in shapes:
        raise IllegalCommand(
            "unknown_command",
            f"Unknown command {clipped(kind)}; expected one of: {', '.join(sorted(shapes))}.",
        )
    declared = shapes[kind]
    unknown = [name for name in command if name != "type" and name not in declared]
    if unknown:
        names = ", ".join(clipped(name) for name in unknown[:3])
        raise IllegalCommand(
            "bad_command",
            f"{kind!r} takes only: {', '.join(['type', *declared])}; not {names}.",
        )
    validated: Command = {"type": kind}
    for name, field_shape in declared.items():
        if name not in command:
            if field_shape.optional:
                continue
            raise IllegalCommand("bad_command", f"{kind!r} needs {name!r}: {field_shape.meaning}.")
        if not field_shape.accepts(command[name]):
            raise IllegalCommand(
                "bad_command", f"{kind!r}: {name!r} must be {field_shape.meaning}."
            )
        validated[name] = command[name]
    return validated
