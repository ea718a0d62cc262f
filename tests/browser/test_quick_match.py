"""Quick match in the lobby, as players meet it at 1366×768 and on a 390×844 phone: two
people press "Find me a game" for the same game and land at one table; a third, alone,
waits and gets bots after the wait chosen; the counts under each game follow."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from tests.browser.helpers import api_json

pytestmark = pytest.mark.browser

TABLE = re.compile(r".*/tables/([0-9a-f-]+)/$")


def find_game(page, ruleset: str, seats: int, wait: str) -> None:
    form = page.locator(f"form.quick-match[data-ruleset='{ruleset}']")
    form.locator("select[name=seats]").select_option(str(seats))
    form.locator("select[name=bots_after]").select_option(wait)
    form.locator("button.find-match").click()


def table_id(page) -> str:
    page.wait_for_url(TABLE)
    match = TABLE.match(page.url)
    assert match is not None
    return match.group(1)


def test_two_people_land_at_one_table_and_a_third_gets_bots(new_player, artifacts):
    ana = new_player("ana", width=1366, height=768)
    bob = new_player("bob", width=390, height=844)
    cy = new_player("cy", width=1366, height=768)
    find_game(ana.page, "kingdoms", 2, "")  # never: people only
    status = ana.page.locator(".game-blurb[data-ruleset='kingdoms'] .match-status")
    expect(status).to_contain_text("Looking for a 2-player game")
    # The others' lobbies count one looking, live.
    counts = bob.page.locator("[data-counts='kingdoms']")
    expect(counts).to_contain_text("1 looking")
    ana.page.screenshot(path=artifacts / "quick-match-waiting-laptop.png")
    bob.page.screenshot(path=artifacts / "quick-match-lobby-phone.png", full_page=True)
    find_game(bob.page, "kingdoms", 2, "60")
    first, second = table_id(ana.page), table_id(bob.page)
    assert first == second
    seats = api_json(ana.page, f"/api/tables/{first}/")["seats"]
    assert {s["name"] for s in seats} == {ana.name, bob.name}
    expect(ana.page.locator("#turn-banner")).to_be_visible()

    # Alone, with the shortest wait (3 s in the browser tests): bots fill the seats.
    find_game(cy.page, "kingdom-builder", 3, "3")
    expect(
        cy.page.locator(".game-blurb[data-ruleset='kingdom-builder'] .match-status")
    ).to_be_visible()
    table = table_id(cy.page)
    seats = api_json(cy.page, f"/api/tables/{table}/")["seats"]
    assert [s["name"] for s in seats if not s["bot"]] == [cy.name]
    assert sum(1 for s in seats if s["bot"]) == 2
    for player in (ana, bob, cy):
        assert player.errors == []


def test_a_player_can_stop_looking(new_player):
    ana = new_player("ana", width=390, height=844)
    page = ana.page
    find_game(page, "kingdom-cards", 3, "")
    status = page.locator(".game-blurb[data-ruleset='kingdom-cards'] .match-status")
    expect(status).to_be_visible()
    status.locator("button.cancel-match").click()
    expect(status).to_be_hidden()
    expect(page.locator("form.quick-match[data-ruleset='kingdom-cards']")).to_be_visible()
    assert api_json(page, "/api/quick-match/") == {"status": "idle"}
    assert ana.errors == []


def quick_match_becomes(page, status: str) -> bool:
    """Whether the player's quick match comes to ``status`` (asked every 0.1 s, 15 s at
    most)."""
    for _ in range(150):
        if api_json(page, "/api/quick-match/")["status"] == status:
            return True
        page.wait_for_timeout(100)
    return False


def test_leaving_the_lobby_stops_looking_and_a_dropped_socket_asks_again(new_player):
    ana = new_player("ana", width=1366, height=768)
    page = ana.page
    routes = []

    def route(ws):
        # A pass-through whose server side the test can close, as a lost connection does
        # (the page's side closes with it).
        routes.append(ws.connect_to_server())

    page.route_web_socket(re.compile(r".*/ws/lobby/$"), route)
    page.goto("/")
    live = page.locator("#lobby-live")
    expect(live).to_have_attribute("data-state", "live")
    find_game(page, "kingdom-cards", 4, "")
    status = page.locator(".game-blurb[data-ruleset='kingdom-cards'] .match-status")
    expect(status).to_be_visible()
    # The server forgets the request with the closed socket; the page, reconnected, asks
    # again and is still looking.
    page.evaluate(
        """() => {
            window.liveStates = [];
            const live = document.getElementById('lobby-live');
            new MutationObserver(() => window.liveStates.push(live.dataset.state))
              .observe(live, {attributes: true});
        }"""
    )
    routes[0].close(code=4000, reason="browser test: connection lost")
    for _ in range(300):  # until the page has opened its new socket
        if len(routes) == 2:
            break
        page.wait_for_timeout(50)
    assert len(routes) == 2 and "down" in page.evaluate("window.liveStates")
    expect(live).to_have_attribute("data-state", "live")
    assert quick_match_becomes(page, "waiting")
    expect(status).to_be_visible()
    # Away from the lobby: no longer looking.
    page.goto("/rules/kingdom-cards/")
    assert quick_match_becomes(page, "idle")
    assert ana.errors == []
