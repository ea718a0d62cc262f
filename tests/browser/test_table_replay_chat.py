"""After the game: the replay slider sits right under the board (in view with it at
1366×900 and on a 390×844 phone); chat lines carry their time."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from tests.browser.helpers import create_table, start_from_lobby

pytestmark = pytest.mark.browser

SIZES = {"desktop": (1366, 900), "phone": (390, 844)}


@pytest.mark.parametrize("size", SIZES)
def test_the_replay_slider_is_next_to_the_board_and_chat_lines_have_times(
    new_player, artifacts, size
):
    width, height = SIZES[size]
    ana = new_player("ana", width=width, height=height)
    page = ana.page
    table_id = create_table(page, "kingdoms", seats=2, bots=1)
    start_from_lobby(page, table_id)
    expect(page.locator(".kingdoms-board")).to_be_visible()
    page.fill("#chat-input", "good luck")
    page.click("#chat-form button[type=submit]")
    line = page.locator("#chat-log .chat-line", has_text="good luck")
    expect(line.locator("time.chat-time")).to_have_text(re.compile(r"^\d\d:\d\d$"))
    # Two seats: when we resign, the bot's seat is the last one left and the game ends.
    page.click("#resign")
    page.click("#resign-confirm")
    replay = page.locator("#replay")
    expect(replay).to_be_visible(timeout=30000)
    # The page redraws at the end (result, reveal): scroll in one step, not via a locator
    # whose element may be replaced meanwhile.
    page.evaluate("document.querySelector('.kingdoms-board').scrollIntoView({block: 'nearest'})")
    board_bottom = page.locator("#board").evaluate("el => el.getBoundingClientRect().bottom")
    box = replay.evaluate(
        "el => { const r = el.getBoundingClientRect(); return [r.top, r.bottom, window.innerHeight]; }"
    )
    top, bottom, inner = box
    assert bottom <= inner + 1 and top >= 0, "the slider is on screen with the board"
    assert top - board_bottom < 40, "the slider is right under the board"
    page.locator("#replay [data-step='first']").click()
    expect(page.locator("#turn-banner")).to_contain_text("Replay: the board just after move 1")
    page.screenshot(path=artifacts / f"replay-{size}.png")
    assert ana.errors == []
