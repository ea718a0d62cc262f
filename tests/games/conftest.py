"""Fixtures shared by the games tests."""

from __future__ import annotations

import pytest


@pytest.fixture
def started(api):
    """A started Kingdoms table of ana and an easy bot; it is ana's turn."""
    client = api("ana")
    game_id = client.post(
        "/api/tables/", {"ruleset": "kingdoms", "seats": 2, "options": {}}, format="json"
    ).json()["id"]
    client.post(f"/api/tables/{game_id}/bots/", {"level": "easy"}, format="json")
    assert client.post(f"/api/tables/{game_id}/start/").status_code == 200
    return client, game_id
