"""Pages of lists the lobby reads while it changes live."""

from __future__ import annotations

from rest_framework.exceptions import NotFound
from rest_framework.pagination import Cursor, CursorPagination
from rest_framework.request import Request

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
