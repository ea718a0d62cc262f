"""The guided first game, as a new player meets it at 1366×768 and on a 390×844 phone: the
lobby offers it to a new account; the table's callouts point at what to do, each step
done by the move it asks for, to the last one; "No thanks" puts the offer away; every game
has its guide, and its first step gives way to its move."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from tests.browser.helpers import wait_for_your_turn

pytestmark = pytest.mark.browser

SIZES = {"laptop": (1366, 768), "phone": (390, 844)}
GUIDED = re.compile(r".*/tables/[0-9a-f-]+/\?guide=1$")


def step(page):
    return page.locator("#guide-callout")


def start_guide(page, ruleset: str) -> None:
    offer = page.locator("#guide-offer")
    expect(offer).to_be_visible()
    offer.locator(f".learn-start[data-ruleset='{ruleset}']").click()
    page.wait_for_url(GUIDED)
    expect(step(page)).to_have_attribute("data-step", "1")


@pytest.mark.parametrize("size", SIZES)
def test_a_new_player_is_offered_the_guide_and_finishes_it(new_player, artifacts, size):
    width, height = SIZES[size]
    ana = new_player("ana", width=width, height=height)
    page = ana.page
    page.screenshot(path=artifacts / f"guide-offer-{size}.png")
    start_guide(page, "kingdom-builder")
    wait_for_your_turn(page)
    expect(step(page)).to_contain_text("terrain card")
    expect(page.locator("#guide-wait")).to_have_count(0)
    page.screenshot(path=artifacts / f"guide-step-1-{size}.png")
    for built in range(1, 4):
        page.locator(".kb-board .hex.target").first.click()
        expect(step(page)).to_have_attribute("data-step", str(built + 1))
    # All three built: the guide points at End turn, which the turn waits for.
    expect(page.locator("#end-turn.guide-target")).to_be_visible()
    page.screenshot(path=artifacts / f"guide-step-4-{size}.png")
    page.locator("#end-turn").click()
    expect(step(page)).to_have_attribute("data-step", "5")
    wait_for_your_turn(page, timeout=30000)
    for _ in range(3):
        built = page.evaluate(
            "window.kingdomTable.view.players[window.kingdomTable.yourSeat].settlements.length"
        )
        page.locator(".kb-board .hex.target").first.click()
        page.wait_for_function(
            "(n) => { const t = window.kingdomTable; return t.view.players[t.yourSeat].settlements.length > n; }",
            arg=built,
        )
    expect(step(page)).to_have_attribute("data-step", "6")
    page.screenshot(path=artifacts / f"guide-last-step-{size}.png")
    page.locator("#guide-finish").click()
    expect(step(page)).to_have_count(0)
    # Put away for this table: a reload does not bring it back.
    page.reload()
    expect(page.locator(".kb-board .hex")).to_have_count(400)
    expect(step(page)).to_have_count(0)
    # Now a player with a game: the lobby offers no guide (the games still have theirs).
    page.goto("/")
    expect(page.locator("#guide-offer")).to_have_count(0)
    expect(page.locator(".game-blurb .learn-start")).to_have_count(3)
    assert ana.errors == []


def test_no_thanks_puts_the_offer_away(new_player):
    ana = new_player("ana", width=1366, height=768)
    page = ana.page
    expect(page.locator("#guide-offer")).to_be_visible()
    page.locator("#guide-offer-dismiss").click()
    expect(page.locator("#guide-offer")).to_be_hidden()
    page.reload()
    expect(page.locator("#create-form[data-ready='1']")).to_be_attached()
    expect(page.locator("#guide-offer")).to_be_hidden()
    assert ana.errors == []


def test_kingdoms_guide_gives_way_to_the_castle_it_asks_for(new_player, artifacts):
    ana = new_player("ana", width=1366, height=768)
    page = ana.page
    start_guide(page, "kingdoms")
    wait_for_your_turn(page)
    expect(page.locator("[data-castle-rank='1'].guide-target")).to_be_visible()
    page.locator("[data-castle-rank='1']").click()
    page.locator(".kingdoms-board .target").first.click()
    expect(step(page)).to_have_attribute("data-step", "2")
    expect(page.locator("#draw-tile.guide-target")).to_be_visible()
    page.screenshot(path=artifacts / "guide-kingdoms-step-2.png")
    assert ana.errors == []


def test_kingdom_cards_guide_gives_way_to_the_first_move(new_player, artifacts):
    ana = new_player("ana", width=390, height=844)
    page = ana.page
    start_guide(page, "kingdom-cards")
    expect(step(page)).to_contain_text("people (1-2-3)")
    choice = page.locator("#kc-challenge button, .kc-hand .kc-card.target[data-bid]")
    expect(choice.first).to_be_visible(timeout=30000)
    is_card = choice.first.get_attribute("data-card") is not None
    choice.first.click()
    if is_card:
        page.locator("#kc-bid").click()
    expect(step(page)).not_to_have_attribute("data-step", "1")
    page.screenshot(path=artifacts / "guide-kingdom-cards-step-2.png")
    assert ana.errors == []
