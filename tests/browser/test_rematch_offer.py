"""A rematch offer from the other player rings like a turn alert: the beep and
notification (counted by the page), and the tab's title; on a phone too."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.browser.helpers import seat_two_players

pytestmark = pytest.mark.browser

SIZES = {"desktop": (1366, 768), "phone": (390, 844)}


@pytest.mark.parametrize("size", SIZES)
def test_a_rematch_offer_rings_and_shows_in_the_title(new_player, artifacts, size):
    width, height = SIZES[size]
    ana = new_player("ana", width=width, height=height)
    bo = new_player("bo", width=width, height=height)
    table_id, _ = seat_two_players(ana, bo, "kingdoms")
    expect(ana.page.locator(".kingdoms-board")).to_be_visible()
    ana.page.click("#resign")
    ana.page.click("#resign-confirm")
    for player in (ana, bo):
        expect(player.page.locator("#turn-banner")).to_contain_text("Game over", timeout=30000)
    assert ana.page.evaluate("window.kingdomTable.alerts.rematchRings") == 0
    bo.page.locator("#result").get_by_role("button", name="Rematch").click()
    bo.page.wait_for_url(lambda url: table_id not in url and "/tables/" in url)
    offer = ana.page.locator("#result .rematch-offer")
    expect(offer).to_have_text(f"{bo.name} opened a rematch.")
    expect(ana.page).to_have_title(f"● {bo.name} offers a rematch · Kingdoms · Kingdom")
    assert ana.page.evaluate("window.kingdomTable.alerts.rematchRings") == 1
    join = ana.page.locator("#result").get_by_role("button", name=f"Join {bo.name}'s rematch")
    expect(join).to_be_in_viewport()
    ana.page.screenshot(path=artifacts / f"rematch-offer-{size}.png")
    join.click()
    ana.page.wait_for_url(lambda url: table_id not in url and "/tables/" in url)
    assert ana.errors == [] and bo.errors == []
