"""Fixtures of the bot and clock tests."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

_real_now = timezone.now


class Clockwork:
    """The server's time, moved by hand."""

    def __init__(self) -> None:
        self.now = _real_now()

    def advance(self, **delta: float) -> None:
        self.now += timedelta(**delta)


@pytest.fixture
def clock(monkeypatch) -> Clockwork:
    clockwork = Clockwork()
    monkeypatch.setattr(timezone, "now", lambda: clockwork.now)
    return clockwork
