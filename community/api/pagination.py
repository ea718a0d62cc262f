"""Pages of the moderators' lists: the report queue and the moderation record.

An offset (games.api.pagination.OffsetPages): these lists change slowly and a moderator
jumps about them. Each page keeps the key its clients read
("reports", "records") beside ``count``, ``next`` and ``previous``.
"""

from __future__ import annotations

from games.api.pagination import OffsetPages


class ReportPages(OffsetPages):
    key = "reports"
    default_limit = 200  # the whole queue before it had pages


class RecordPages(OffsetPages):
    key = "records"
    default_limit = 500  # the whole record before it had pages
