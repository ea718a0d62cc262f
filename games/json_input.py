"""What a JSON document from a client may hold before any of it reaches the service:
the REST API's guard and the WebSocket consumers ask the same question here.

Refused: nesting deeper than ``MAX_DEPTH`` (no command, option or message needs more
than a few levels, and a thousand levels exhaust the recursion of any walker), a NUL
character (PostgreSQL refuses it in text), a lone surrogate (not encodable in UTF-8, so
no database stores it; a surrogate *pair* decodes to one ordinary character).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

MAX_DEPTH = 32


@dataclass(frozen=True)
class Problem:
    code: str
    message: str


TOO_DEEP = Problem("too_deep", f"JSON may nest at most {MAX_DEPTH} levels deep.")
BAD_TEXT = Problem("bad_text", "Text may not contain NUL characters or lone surrogates.")


def bad_text(text: str) -> bool:
    """NUL or a lone surrogate in ``text``."""
    if "\x00" in text:
        return True
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return True
    return False


def problem(document: Any) -> Problem | None:
    """Why ``document`` (decoded JSON, or ``TOO_DEEP``) is refused, or None. Iterative,
    so a deep document cannot exhaust the recursion limit here."""
    if isinstance(document, Problem):
        return document
    pending: list[tuple[Any, int]] = [(document, 1)]
    while pending:
        value, depth = pending.pop()
        if isinstance(value, str):
            if bad_text(value):
                return BAD_TEXT
        elif isinstance(value, dict | list):
            if depth > MAX_DEPTH:
                return TOO_DEEP
            items = value.items() if isinstance(value, dict) else enumerate(value)
            for key, item in items:
                if isinstance(key, str) and bad_text(key):
                    return BAD_TEXT
                pending.append((item, depth + 1))
    return None
