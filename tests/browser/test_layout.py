"""The pages at phone width (360px) and by keyboard alone."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from tests.browser.helpers import create_table, start_from_lobby, wait_for_your_turn

pytestmark = pytest.mark.browser

# The elements that stick out past the right edge, so a failure says what to fix.
STICKING_OUT = """() => [...document.querySelectorAll('body *')]
  .filter((el) => el.getBoundingClientRect().right > window.innerWidth + 1)
  .filter((el) => !el.closest('.visually-hidden, .skip-link'))
  .filter((el) => ![...el.children].some((c) => c.getBoundingClientRect().right >= el.getBoundingClientRect().right - 1))
  .map((el) => `${el.tagName.toLowerCase()}.${[...el.classList].join('.')}`
    + ` right=${Math.round(el.getBoundingClientRect().right)}`)"""


def assert_no_sideways_scroll(page, where: str) -> None:
    wide = page.evaluate("() => document.documentElement.scrollWidth")
    inner = page.evaluate("() => window.innerWidth")
    assert wide <= inner + 1, (
        f"{where} scrolls sideways at {inner}px: {page.evaluate(STICKING_OUT)[:8]}"
    )


def test_phone_width_lobby_and_table_fit_and_play_by_keyboard(new_player, artifacts):
    ana = new_player("ana", width=360, height=740)
    page = ana.page
    # The create form fills in each game's options and clocks after the page loads:
    # check once they are there (the long clock names once widened the whole lobby).
    for ruleset in ("kingdom-builder", "kingdom-cards", "kingdoms"):
        page.select_option("#create-ruleset", ruleset)
        expect(page.locator("#create-time")).to_be_visible()
        expect(page.locator("#time-kind")).to_be_visible()
        assert_no_sideways_scroll(page, f"the lobby with {ruleset} chosen")
    page.screenshot(path=artifacts / "lobby-phone.png", full_page=True)
    clock = {"kind": "realtime", "minutes": 5, "increment_seconds": 3}
    table_id = create_table(page, "kingdoms", seats=2, bots=1, time_control=clock)
    card = page.locator(f".table-card[data-table-id='{table_id}']")
    expect(card).to_contain_text("5 min + 3 s")
    start_from_lobby(page, table_id)
    expect(page.locator(".kingdoms-board")).to_be_visible()
    wait_for_your_turn(page)
    # The server's clock for our seat counts down on the page (bots have none).
    expect(page.locator("#seats-heading")).to_contain_text("5 min + 3 s")
    mine = page.locator(".seat-you .seat-clock")
    expect(mine).to_have_class(re.compile(r"\brunning\b"))
    expect(mine).to_have_text(re.compile(r"^[45]:\d\d$"))
    expect(page.locator(".seat-clock")).to_have_count(1)
    assert_no_sideways_scroll(page, "the table")

    # Shapes as well as colours: the preference toggle, kept across pages.
    page.click("#shapes-toggle")
    expect(page.locator("html.shapes-on")).to_have_count(1)
    expect(page.locator("#shapes-toggle")).to_have_attribute("aria-pressed", "true")

    # Keyboard only: Tab to the rank-1 castle, Space to pick it, Tab to a space, Enter.
    page.locator("[data-castle-rank='1']").focus()
    page.keyboard.press("Space")
    expect(page.locator("[data-castle-rank='1']")).to_have_attribute("aria-pressed", "true")
    page.locator(".kingdoms-board .target").first.focus()
    page.keyboard.press("Shift+Tab")
    page.keyboard.press("Tab")
    focused = page.evaluate("document.activeElement.getAttribute('data-focus-key')")
    assert focused and focused.startswith("cell-")
    page.keyboard.press("Enter")
    expect(page.locator("#log li", has_text=f"{ana.name} placed a rank-1 castle")).to_have_count(1)
    # The clocks were pressed (timed table): the log keeps those lines out of sight.
    assert page.locator("#log li[data-type='clock_pressed']").count() > 0
    assert page.locator("#log li:visible", has_text="clock").count() == 0
    page.screenshot(path=artifacts / "table-kingdoms-phone.png", full_page=True)
    page.goto("/")
    expect(page.locator("html.shapes-on")).to_have_count(1)
    assert ana.errors == []


def test_phone_width_kingdom_builder_fits_and_builds_by_keyboard(new_player, artifacts):
    ana = new_player("ana", width=360, height=740)
    page = ana.page
    table_id = create_table(page, "kingdom-builder", seats=2, bots=1)
    start_from_lobby(page, table_id)
    expect(page.locator(".kb-board .hex")).to_have_count(400)
    wait_for_your_turn(page)
    assert_no_sideways_scroll(page, "the Kingdom Builder table")
    # The board keeps a usable hex size and scrolls in its own box instead of the page.
    wrap = page.locator(".kb-board-wrap")
    assert wrap.evaluate("el => el.getBoundingClientRect().right") <= 361

    # Keyboard: a highlighted hex takes the focus, Enter builds on it.
    target = page.locator(".kb-board .hex.target").first
    row, col = target.get_attribute("data-row"), target.get_attribute("data-col")
    target.focus()
    assert page.evaluate("document.activeElement.dataset.focusKey") == f"hex-{row}-{col}"
    page.keyboard.press("Enter")
    built = page.locator("#log li", has_text=f"{ana.name} builds on")
    expect(built).to_have_count(1)
    expect(built).to_contain_text(f" at {chr(65 + int(col))}{int(row) + 1}")
    assert_no_sideways_scroll(page, "the Kingdom Builder table after a move")
    page.screenshot(path=artifacts / "table-kingdom-builder-phone.png", full_page=True)
    assert ana.errors == []


def test_phone_width_kingdom_cards_fits_and_plays_by_keyboard(new_player, artifacts):
    ana = new_player("ana", width=360, height=740)
    page = ana.page
    table_id = create_table(
        page, "kingdom-cards", seats=2, bots=1, options={"allow_two_players": True}
    )
    start_from_lobby(page, table_id)
    expect(page.locator(".kc-hand .kc-hand-item")).to_have_count(9)
    # Two seats: we challenge the bot, or the bot challenges us and we bid a card.
    choice = page.locator("#kc-challenge button, .kc-hand .kc-card.target[data-bid]")
    expect(choice.first).to_be_visible()
    assert_no_sideways_scroll(page, "the Kingdom Cards table")

    # Keyboard: Enter on the highlighted choice (for a card: Enter again on "Bid").
    # Locator.press focuses and presses in one step: a re-render between a separate
    # focus() and keyboard.press() (the socket's first news) could take the focus away.
    target = choice.first
    is_card = target.get_attribute("data-card") is not None
    target.press("Enter")
    if is_card:
        expect(target).to_have_attribute("aria-pressed", "true")
        page.locator("#kc-bid").press("Enter")
    verb = "bid" if is_card else "challenged"
    # 15 s, not the default 5: in a full run on 2 cores the bot's thread and the other
    # workers' browsers share the machine (a full run once missed it at 5 s).
    expect(page.locator("#log li", has_text=f"{ana.name} {verb}")).to_have_count(1, timeout=15_000)
    assert_no_sideways_scroll(page, "the Kingdom Cards table after a move")
    page.screenshot(path=artifacts / "table-kingdom-cards-phone.png", full_page=True)
    assert ana.errors == []
