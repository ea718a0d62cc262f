"""Under /api/ every answer is JSON ``{"code", "message"}``: a Host that is not allowed,
an address without its final slash, an Accept or ?format= asking for DRF's HTML pages."""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from tests.games.helpers import json_refusal

pytestmark = pytest.mark.django_db(transaction=True)


def assert_json(response, status: int) -> dict:
    assert response.status_code == status, (response.status_code, response.content[:200])
    body = json_refusal(response)
    return body


@pytest.mark.parametrize("debug", [False, True])
def test_a_host_not_allowed_is_a_json_400(started, settings, debug):
    settings.DEBUG = debug
    client, game_id = started
    assert assert_json(client.get("/api/tables/", HTTP_HOST="evil.example"), 400)["code"] == (
        "bad_host"
    )
    move = client.post(
        f"/api/tables/{game_id}/commands/",
        {"command": {"type": "end_turn"}},
        format="json",
        HTTP_HOST="evil.example",
    )
    assert_json(move, 400)


@pytest.mark.parametrize("method", ["get", "post"])
def test_an_address_without_its_slash_is_a_json_404_naming_the_right_one(api, method, settings):
    settings.DEBUG = True  # Django's POST-without-slash error is a debug-only RuntimeError
    response = getattr(api("ana"), method)("/api/tables")
    body = assert_json(response, 404)
    assert "/api/tables/" in body["message"]


def test_html_is_never_rendered_under_the_api():
    client = APIClient()
    for response in (
        client.get("/api/tables/", HTTP_ACCEPT="text/html"),
        client.get("/api/tables/?format=api"),
        client.get("/api/tables/", HTTP_ACCEPT="text/html,application/xhtml+xml,*/*;q=0.8"),
    ):
        assert response["Content-Type"].startswith("application/json"), response.content[:100]
        assert b"<html" not in response.content.lower()


def test_the_sites_pages_keep_their_slash_redirect():
    response = APIClient().get("/leaderboard")
    assert response.status_code == 301 and response["Location"] == "/leaderboard/"
