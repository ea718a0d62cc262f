"""A command whose expected_seq is not the head gets 409 stale_seq with the head, and a
message that says which way it differs: behind (the game moved on) or ahead."""

from __future__ import annotations

import pytest

pytestmark = pytest.mark.django_db(transaction=True)


def started(client) -> tuple[str, dict]:
    game = client.post("/api/tables/", {"ruleset": "kingdoms", "seats": 2}, format="json").json()
    client.post(f"/api/tables/{game['id']}/bots/", {"level": "easy"}, format="json")
    client.post(f"/api/tables/{game['id']}/start/")
    return game["id"], client.get(f"/api/tables/{game['id']}/legal/").json()


@pytest.mark.parametrize(("offset", "words"), [(-1, "has moved on"), (3, "is ahead of the game")])
def test_a_stale_expected_seq_says_whether_the_client_is_behind_or_ahead(api, offset, words):
    client = api("ana")
    game_id, legal = started(client)
    body = {"command": legal["commands"][0], "expected_seq": legal["seq"] + offset}
    response = client.post(f"/api/tables/{game_id}/commands/", body, format="json")
    assert response.status_code == 409
    answer = response.json()
    assert (answer["code"], answer["head"]) == ("stale_seq", legal["seq"])
    assert words in answer["message"] and f"head is {legal['seq']}" in answer["message"]
