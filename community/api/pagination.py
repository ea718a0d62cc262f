"""Pages of the moderators' lists: the report queue and the moderation record.

An offset, as the leaderboard's (players.serializers.LeaderboardPagination): these lists
change slowly and a moderator jumps about them. Each page keeps the key its clients read
("reports", "records") beside ``count``, ``next`` and ``previous``.
"""

from __future__ import annotations

from typing import Any

from rest_framework.pagination import LimitOffsetPagination
from rest_framework.request import Request
from rest_framework.response import Response

from games.errors import ServiceError


class ModerationPages(LimitOffsetPagination):
    """``?limit=`` 1 to ``max_limit`` (out of range is clamped) and ``?offset=``; a value
    that is not a whole number is a 400, an empty one the default."""

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


class ReportPages(ModerationPages):
    key = "reports"
    default_limit = 200  # the whole queue before it had pages


class RecordPages(ModerationPages):
    key = "records"
    default_limit = 500  # the whole record before it had pages
