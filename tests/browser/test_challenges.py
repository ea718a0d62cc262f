"""Challenges in the browser: from a profile and from the lobby's player list, answered
in the lobby, and both players taken to the table when it starts."""

from __future__ import annotations

import json
import os
import urllib.request

import pytest
from playwright.sync_api import expect

from tests.browser.helpers import PASSWORD, TABLE_URL, api_json, api_post

pytestmark = pytest.mark.browser


def test_a_challenge_from_a_profile_accepted_in_the_lobby_takes_both_to_the_table(new_player):
    ana, bo = new_player("ana"), new_player("bo")
    ana.page.goto(f"/players/{bo.name}/")
    ana.page.select_option("#profile-challenge-ruleset", "kingdoms")
    ana.page.get_by_role("button", name=f"Challenge {bo.name}").click()
    ana.page.wait_for_url("**/#challenges")
    mine = ana.page.locator("#challenge-list li[data-direction='out']")
    expect(mine).to_contain_text(bo.name)

    # Bo's lobby, open all along, hears of it on the event stream.
    theirs = bo.page.locator("#challenge-list li[data-direction='in']")
    expect(theirs).to_contain_text(ana.name)
    theirs.get_by_role("button", name="Accept").click()
    bo.page.wait_for_url(TABLE_URL)
    ana.page.wait_for_url(TABLE_URL)
    assert ana.page.url == bo.page.url
    table = api_json(bo.page, bo.page.url.replace("/tables/", "/api/tables/"))
    assert table["status"] == "active" and table["private"] is True
    assert {s["user"] for s in table["seats"]} == {ana.name, bo.name}
    assert ana.errors == [] and bo.errors == []


def test_a_bot_account_in_the_lobbys_player_list_is_challenged_and_declines(new_player, server_url):
    name = f"robo{os.getpid() % 10000}"
    token = api_post(server_url, "/api/auth/signup/", {"username": name, "password": PASSWORD})[
        "token"
    ]
    api_post(server_url, "/api/bot/account/upgrade/", {}, token)
    ana = new_player("ana")
    row = ana.page.locator(f"#player-list li[data-player='{name}']")
    expect(row.locator(".bot-badge")).to_have_text("BOT")
    ana.page.select_option("#challenge-ruleset", "kingdom-cards")
    row.get_by_role("button", name="Challenge").click()
    mine = ana.page.locator("#challenge-list li[data-direction='out']")
    expect(mine).to_contain_text(name)
    expect(mine).to_contain_text("kingdom-cards · 2 seats")

    request = urllib.request.Request(
        server_url + "/api/challenge/", headers={"Authorization": f"Token {token}"}
    )
    with urllib.request.urlopen(request, timeout=15) as response:
        (incoming,) = json.loads(response.read())["in"]
    api_post(server_url, f"/api/challenge/{incoming['id']}/decline/", {"reason": "no"}, token)
    expect(ana.page.locator(".toast", has_text="declined your challenge")).to_be_visible()
    expect(mine).to_have_count(0)
    assert ana.errors == []
