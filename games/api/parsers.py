"""The API's JSON parser: DRF's, with the body rules of ``games.json_input``.

A document nested deeper than Python's recursion allows makes ``json.load`` raise
RecursionError, which DRF's parser lets through as a 500; here it is a 400, and so is any
document the guard's rules refuse (too deep, NUL, lone surrogate) once decoded in the
body's declared charset.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import IO, Any

from rest_framework import exceptions, parsers

from games import json_input


class JSONParser(parsers.JSONParser):
    def parse(
        self,
        stream: IO[bytes],
        media_type: str | None = None,
        parser_context: Mapping[str, Any] | None = None,
    ) -> Any:
        document: Any
        try:
            document = super().parse(stream, media_type, parser_context)
        except RecursionError:
            document = json_input.TOO_DEEP
        problem = json_input.problem(document)
        if problem is not None:
            raise exceptions.ParseError(problem.message, code=problem.code)
        return document
