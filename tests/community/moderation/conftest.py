"""The people moderation tests act with: a moderator and three or four players."""

from __future__ import annotations

import pytest

from tests.games.helpers import make_moderator


@pytest.fixture
def mod(make_user):
    return make_moderator(make_user("mod"))


@pytest.fixture
def trio(make_user):
    return [make_user("ana"), make_user("bob"), make_user("cy")]


@pytest.fixture
def four(trio, make_user):
    """Four at the table, so two can be removed and the game still goes on."""
    return [*trio, make_user("dee")]
