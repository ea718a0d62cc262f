"""Fixtures of the audit tests."""

from __future__ import annotations

import pytest

from games.models import Game
from tests.audit.helpers import played_out_game


@pytest.fixture
def finished_game(make_user, settings) -> Game:
    settings.SNAPSHOT_EVERY = 20  # several snapshots to check the replay against
    return played_out_game(make_user())


@pytest.fixture
def players(make_user) -> list:
    return [make_user("ana"), make_user("bo")]
