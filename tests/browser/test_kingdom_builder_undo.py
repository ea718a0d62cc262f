"""Kingdom Builder undo in a real browser: a build taken back leaves the board and the
turn bar as they were; the third build waits for End turn, so it can be taken back too;
once the turn is over (the next card drawn) Undo is gone."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from tests.browser.helpers import create_table, start_from_lobby, wait_for_your_turn

pytestmark = pytest.mark.browser

SIZES = {"desktop": (1366, 900), "phone": (390, 844)}


def hex_at(page, row: str, col: str):
    return page.locator(f".kb-board .hex[data-row='{row}'][data-col='{col}']")


@pytest.mark.parametrize("size", SIZES)
def test_undo_takes_back_a_build_until_the_turn_ends(new_player, artifacts, size):
    width, height = SIZES[size]
    ana = new_player("ana", width=width, height=height)
    page = ana.page
    table_id = create_table(page, "kingdom-builder", seats=2, bots=1)
    start_from_lobby(page, table_id)
    expect(page.locator(".kb-board .hex")).to_have_count(400)
    wait_for_your_turn(page)
    me = str(page.evaluate("window.kingdomTable.yourSeat"))
    built = page.locator("#kb-built")
    undo = page.locator("#undo")
    expect(built).to_have_text("0 of 3 built")
    expect(undo).to_have_count(0)  # nothing to take back yet

    # Build: the settlement is ours on the board, the bar counts it, Undo is offered.
    target = page.locator(".kb-board .hex.target").first
    row, col = target.get_attribute("data-row"), target.get_attribute("data-col")
    target.click()
    expect(built).to_have_text("1 of 3 built")
    expect(hex_at(page, row, col)).to_have_attribute("data-piece", "settlement")
    expect(hex_at(page, row, col)).to_have_attribute("data-seat", me)
    expect(undo).to_be_visible()
    page.screenshot(path=artifacts / f"kb-undo-{size}-built.png")

    # Undo: the hex is empty (and a target again), the bar back at 0, the log says so.
    undo.click()
    expect(built).to_have_text("0 of 3 built")
    expect(hex_at(page, row, col)).not_to_have_attribute("data-piece", "settlement")
    expect(hex_at(page, row, col).locator(".settlement")).to_have_count(0)
    expect(
        page.locator(f".kb-board .hex[data-seat='{me}'][data-piece='settlement']")
    ).to_have_count(0)
    expect(hex_at(page, row, col)).to_have_class(re.compile(r"\btarget\b"))
    expect(page.locator("#log li[data-type='move_undone']")).to_have_count(1)
    expect(undo).to_have_count(0)
    page.screenshot(path=artifacts / f"kb-undo-{size}-undone.png")

    # Three builds: the turn waits for End turn (the last build can still be taken back).
    bot = 1 - int(me)
    bot_turns = page.locator(f"#log li[data-type='turn_started'][data-about='{bot}']")
    before = bot_turns.count()
    for count in range(1, 4):
        page.locator(".kb-board .hex.target").first.click()
        expect(
            page.locator(f".kb-board .hex[data-seat='{me}'][data-piece='settlement']")
        ).to_have_count(count)
        expect(undo).to_be_visible()
    end_turn = page.locator("#end-turn")
    expect(built).to_have_text("3 of 3 built")
    expect(end_turn).to_be_visible()
    assert bot_turns.count() == before
    page.screenshot(path=artifacts / f"kb-undo-{size}-all-built.png")
    undo.click()
    expect(built).to_have_text("2 of 3 built")
    page.locator(".kb-board .hex.target").first.click()
    expect(built).to_have_text("3 of 3 built")
    # End turn ends it and draws the next card: nothing to take back any more.
    end_turn.click()
    # The bot's turn has begun (it may be over already): ours ended with the card drawn.
    expect(bot_turns).to_have_count(before + 1)
    expect(undo).to_have_count(0)
    # Our next turn starts with a fresh card: still no Undo until we build.
    wait_for_your_turn(page)
    expect(built).to_have_text("0 of 3 built")
    expect(undo).to_have_count(0)
    expect(
        page.locator(f".kb-board .hex[data-seat='{me}'][data-piece='settlement']")
    ).to_have_count(3)
    page.screenshot(path=artifacts / f"kb-undo-{size}-next-turn.png")
    assert ana.errors == []
