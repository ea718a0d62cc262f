"""Kingdom Cards in a real browser: act by clicking, the hand's order kept, resign."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.browser.helpers import create_table, start_from_lobby, wait_for_your_turn

pytestmark = pytest.mark.browser


def hand_order(page) -> list[str]:
    return page.locator(".kc-hand .kc-hand-item").evaluate_all(
        "els => els.map(e => e.dataset.card)"
    )


def test_kingdom_cards_by_clicking_with_a_kept_hand_order(new_player, artifacts):
    ana = new_player("ana")
    page = ana.page
    table_id = create_table(
        page, "kingdom-cards", seats=2, bots=1, options={"allow_two_players": True}
    )
    start_from_lobby(page, table_id)
    expect(page.locator(".kc-kingdoms .kc-kingdom")).to_have_count(2)
    wait_for_your_turn(page)
    expect(page.locator("#kc-tutorial")).to_be_visible()
    page.screenshot(path=artifacts / "table-kingdom-cards.png", full_page=True)

    # Reorder the hand with the buttons; the order survives a reload.
    before = hand_order(page)
    assert len(before) >= 2
    page.get_by_role("button", name="Move", exact=False).filter(has_text="▶").first.click()
    after = hand_order(page)
    assert after[:2] == [before[1], before[0]]
    # Tips off, shapes on: preferences kept in localStorage too.
    page.get_by_label("Show tips").uncheck()
    page.get_by_label("Shapes on cards (colour-blind)").check()
    page.reload()
    expect(page.locator(".kc-hand .kc-hand-item").first).to_be_visible()
    assert hand_order(page)[:2] == after[:2]
    expect(page.locator("#kc-tutorial")).to_have_count(0)
    expect(page.locator(".kc.kc-shapes")).to_have_count(1)

    # Act by clicking: challenge, bid a highlighted card, lay a group, or keep the kingdom.
    wait_for_your_turn(page)
    mine = page.locator("#log li[data-actor^='seat:']")
    acted = mine.count()
    for selector in ("#kc-challenge button", "button.kc-card[data-bid]", "[data-lay]", "#kc-keep"):
        choice = page.locator(selector)
        if choice.count():
            choice.first.click()
            if selector == "button.kc-card[data-bid]":
                page.locator("#kc-bid").click()
            break
    expect(mine).not_to_have_count(acted)
    my_seq = int(mine.last.get_attribute("data-seq"))
    page.wait_for_function(
        "seq => [...document.querySelectorAll('#log li')].some("
        "li => Number(li.dataset.seq) > seq && li.dataset.actor.startsWith('bot:'))",
        arg=my_seq,
    )
    page.click("#resign")
    page.click("#resign-confirm")
    expect(page.locator("#result")).to_be_visible()
    expect(page.locator("#result tbody tr").last).to_contain_text(ana.name)
    assert ana.errors == []
