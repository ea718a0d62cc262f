"""Pages of the API's long lists: a cursor for the lobby's table list (it changes live),
an offset for lists that change slowly and that a reader jumps about (leaderboards, the
moderators' queue and record)."""

from __future__ import annotations

from typing import Any

from rest_framework.exceptions import NotFound
from rest_framework.pagination import Cursor, CursorPagination, LimitOffsetPagination
from rest_framework.request import Request
from rest_framework.response import Response

from games.errors import ServiceError


class TablePages(CursorPagination):
    """Newest tables first, a page at a time. A cursor, not an offset: tables created
    while a player reads page 1 would shift an offset's page 2 (repeating rows), while a
    cursor goes on from the last table seen. The new tables reach the lobby over its
    socket anyway."""

    ordering = ("-created_at", "-id")  # id: a fixed order among tables made together
    page_size = 50
    max_page_size = 200
    page_size_query_param = "limit"

    def get_page_size(self, request: Request) -> int:
        # As before pages: a limit out of range is clamped, one not a number refused.
        raw = request.query_params.get(self.page_size_query_param)
        if raw in (None, ""):
            return self.page_size
        try:
            return max(1, min(int(raw), self.max_page_size))
        except ValueError as exc:
            raise ServiceError("invalid", "limit must be a whole number.") from exc

    def decode_cursor(self, request: Request) -> Cursor | None:
        try:
            return super().decode_cursor(request)
        except NotFound as exc:  # a mangled cursor is a bad request, not a missing table
            raise ServiceError("invalid", "cursor is not one this list gave.") from exc


class OffsetPages(LimitOffsetPagination):
    """``?limit=`` 1 to ``max_limit`` (out of range is clamped) and ``?offset=``; a value
    that is not a whole number is a 400, an empty one the default. A page is
    ``{"count", "next", "previous", <key>: [...]}``."""

    key = "results"
    default_limit = 100
    max_limit = 500

    def _whole(self, request: Request, name: str, default: int) -> int:
        raw = request.query_params.get(name)
        if not raw:  # an empty value is an absent one, as in every view
            return default
        try:
            return int(raw)
        except ValueError as exc:
            raise ServiceError("invalid", f"{name} must be a whole number.") from exc

    def get_limit(self, request: Request) -> int:
        limit = self._whole(request, self.limit_query_param, self.default_limit)
        return max(1, min(limit, self.max_limit))

    def get_offset(self, request: Request) -> int:
        return max(0, self._whole(request, self.offset_query_param, 0))

    def get_paginated_response(self, data: list[dict[str, Any]]) -> Response:
        return Response(
            {
                "count": self.count,
                "next": self.get_next_link(),
                "previous": self.get_previous_link(),
                self.key: data,
            }
        )
