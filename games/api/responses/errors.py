"""The one error answer every operation may give, and which statuses each kind of
operation documents."""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import OpenApiResponse
from rest_framework import serializers


# ---- errors ---------------------------------------------------------------------------
class ErrorSerializer(serializers.Serializer):
    """Every 4xx answer: a stable code and a sentence (games.api.errors)."""

    code = serializers.CharField(help_text="stable machine code, e.g. not_found, stale_seq")
    message = serializers.CharField(help_text="a sentence a player understands")
    # The answer's own field; the name shadows DRF's Serializer.fields.
    fields = serializers.DictField(  # type: ignore[assignment]
        required=False, help_text="invalid request fields and what is wrong with them"
    )
    head = serializers.IntegerField(required=False, help_text="stale_seq: the game's head seq")


_ERROR_WHEN = {
    400: "The request is invalid or the rules refuse the command.",
    401: "No credentials, or a token that is not valid (with WWW-Authenticate: Token).",
    403: "Signed in, but not allowed to do this.",
    404: "No such table, message, report, player or game.",
    409: "The table or game is not in a state that allows this (or the seq is stale).",
    413: "The request body is too large.",
    415: "The body is not JSON, a form or multipart, or cannot be read as its type says.",
    429: "Too many requests: slow down.",
}


def errors(*statuses: int) -> dict[int, OpenApiResponse]:
    """The shared error answer for each of ``statuses``."""
    return {s: OpenApiResponse(ErrorSerializer, description=_ERROR_WHEN[s]) for s in statuses}


# Which errors an operation may answer: every call may be refused with 400 (bad query or
# body), 401 without valid credentials, 403 when not allowed; writes take bodies (413, 415); ONE names a thing by its
# id or name in the path (404); TABLE acts on a table whose state may forbid it (409).
READ = errors(400, 401, 403)
READ_ONE = errors(400, 401, 403, 404)
WRITE = errors(400, 401, 403, 413, 415)
WRITE_ONE = errors(400, 401, 403, 404, 413, 415)
WRITE_TABLE = errors(400, 401, 403, 404, 409, 413, 415)


def empty_query_values_allowed(result: dict, **kwargs: Any) -> dict:
    """Every view reads an empty query parameter as an absent one (its default), so the
    schema says so (a drf-spectacular postprocessing hook)."""
    for operations in result.get("paths", {}).values():
        for operation in operations.values():
            for parameter in operation.get("parameters", []):
                if parameter.get("in") == "query":
                    parameter["allowEmptyValue"] = True
    return result
