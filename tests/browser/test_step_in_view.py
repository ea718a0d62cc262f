"""The prompt and the controls of the current step are on screen without scrolling, on a
1366×768 laptop and a 390×844 phone: Kingdoms' "Choose a castle… or draw a tile" with its
Draw button and your castles, Kingdom Builder's card and hint."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.browser.helpers import create_table, start_from_lobby, wait_for_your_turn

pytestmark = pytest.mark.browser

SIZES = {"laptop": (1366, 768), "phone": (390, 844)}
IN_WINDOW = """(el) => { const r = el.getBoundingClientRect();
  return r.width > 0 && r.top >= 0 && r.left >= 0 && r.bottom <= window.innerHeight
    && r.right <= window.innerWidth; }"""


ON_SCREEN = """(selector) => { const el = document.querySelector(selector);
  if (!el) return false;
  const r = el.getBoundingClientRect();
  return r.width > 0 && r.top >= 0 && r.left >= 0 && r.bottom <= window.innerHeight
    && r.right <= window.innerWidth; }"""


def assert_on_screen(page, selector: str) -> None:
    """The first element the selector finds is on screen (asked again while the page
    redraws: a bot's move re-renders the bar)."""
    expect(page.locator(selector).first).to_be_visible()
    try:
        page.wait_for_function(ON_SCREEN, arg=selector, timeout=5000)
    except Exception as exc:  # Playwright's TimeoutError: say which element
        raise AssertionError(f"{selector} is off screen") from exc


@pytest.mark.parametrize("size", SIZES)
def test_kingdoms_first_turn_prompt_draw_and_castles_in_view(new_player, artifacts, size):
    width, height = SIZES[size]
    ana = new_player("ana", width=width, height=height)
    page = ana.page
    table_id = create_table(page, "kingdoms", seats=3, bots=2)
    start_from_lobby(page, table_id)
    wait_for_your_turn(page)
    expect(page.locator("#kingdoms-hint")).to_contain_text("Choose a castle")
    for selector in (
        "#turn-banner",
        "#kingdoms-hint",
        "#draw-tile",
        "[data-castle-rank='1']",
        "[data-castle-rank='4']",
    ):
        assert_on_screen(page, selector)
    # Every space of the grid can be reached without scrolling.
    for corner in ("[data-row='0'][data-col='0']", "[data-row='4'][data-col='5']"):
        assert_on_screen(page, f".kingdoms-board .cell{corner}")
    page.screenshot(path=artifacts / f"kingdoms-first-turn-{size}.png")

    # Pick a castle: the prompt follows the step and stays on screen.
    page.locator("[data-castle-rank='1']").click()
    expect(page.locator("#kingdoms-hint")).to_contain_text("Now choose a highlighted space")
    assert_on_screen(page, "#kingdoms-hint")
    assert_on_screen(page, ".kingdoms-board .target")
    # Draw instead: the drawn tile and its prompt are on screen.
    page.locator("[data-castle-rank='1']").click()
    page.locator("#draw-tile").click()
    expect(page.locator(".drawn-tile")).to_contain_text("You drew")
    assert_on_screen(page, ".drawn-tile")
    assert ana.errors == []


def test_kingdom_builder_turn_bar_in_view_on_a_laptop(new_player, artifacts):
    ana = new_player("ana", width=1366, height=768)
    page = ana.page
    table_id = create_table(page, "kingdom-builder", seats=2, bots=1)
    start_from_lobby(page, table_id)
    wait_for_your_turn(page)
    for selector in (
        "#turn-banner",
        "#kb-hint",
        "#kb-turn-bar .terrain-card",
        ".kb-board .hex.target",
    ):
        assert_on_screen(page, selector)
    # The three scoring cards sit beside the board, on screen while you play.
    cards = page.locator(".kb-card[data-card]")
    expect(cards).to_have_count(3)
    for card in cards.all():
        assert card.evaluate(IN_WINDOW), f"the card {card.get_attribute('data-card')} is off screen"
    # Each location on the board by its full name and what its tile does: beside the board,
    # and on the hex itself when hovered.
    kinds = set(
        page.locator(".kb-board .hex[data-location]").evaluate_all(
            "els => els.map((g) => g.dataset.location)"
        )
    )
    expect(page.locator(".kb-location")).to_have_count(len(kinds))
    hex_ = page.locator(".kb-board .hex[data-location]").first
    tile = hex_.get_attribute("data-location")
    title = hex_.locator("title").text_content()
    panel = page.locator(f".kb-location[data-location='{tile}']").inner_text()
    name, what = panel.split("\n", 1)
    assert title.startswith(name.split(" (")[0]) and what.strip() in title, (title, panel)
    page.screenshot(path=artifacts / "kb-laptop-first-turn.png")
    assert ana.errors == []


def test_at_a_kingdom_builder_games_end_the_whole_board_shows_between_the_bars(
    new_player, artifacts
):
    ana = new_player("ana", width=1366, height=768)
    page = ana.page
    table_id = create_table(page, "kingdom-builder", seats=2, bots=1)
    start_from_lobby(page, table_id)
    wait_for_your_turn(page)
    page.click("#resign")
    page.click("#resign-confirm")
    expect(page.locator("#replay")).to_be_visible(timeout=30000)
    # The board's first row just under the bar at the top: its last row is above the
    # replay bar at the bottom.
    page.evaluate(
        """() => { const top = document.querySelector('.kb-board .hex[data-row="0"]').getBoundingClientRect().top;
           const bar = document.getElementById('table-status').getBoundingClientRect().bottom;
           window.scrollBy(0, top - bar - 4); }"""
    )
    bottom_row = page.evaluate(
        """() => Math.max(...[...document.querySelectorAll('.kb-board .hex[data-row="19"]')]
             .map((g) => g.getBoundingClientRect().bottom))"""
    )
    replay_top = page.locator("#replay").evaluate("el => el.getBoundingClientRect().top")
    assert bottom_row <= replay_top + 1, (bottom_row, replay_top)
    replay_height = page.locator("#replay").evaluate("el => el.getBoundingClientRect().height")
    assert replay_height < 70, "the replay bar is one slim row"
    page.screenshot(path=artifacts / "kb-end-between-the-bars.png")
    assert ana.errors == []


@pytest.mark.parametrize("size", SIZES)
def test_kingdom_cards_tip_and_the_picked_cards_buttons_stay_in_view(new_player, artifacts, size):
    width, height = SIZES[size]
    ana = new_player("ana", width=width, height=height)
    page = ana.page
    table_id = create_table(
        page, "kingdom-cards", seats=2, bots=1, options={"allow_two_players": True}
    )
    start_from_lobby(page, table_id)
    expect(page.locator(".kc-hand .kc-hand-item")).to_have_count(9)
    choice = page.locator("#kc-challenge button, .kc-hand .kc-card.target[data-bid]")
    expect(choice.first).to_be_visible(timeout=20000)
    assert_on_screen(page, "#kc-tutorial")
    if choice.first.get_attribute("data-card") is None:
        # The challenger: the opponents to challenge are on screen.
        assert_on_screen(page, "#kc-challenge button")
    else:
        # Challenged: pick a card low in the hand; its Bid button is on screen at once.
        card = page.locator(".kc-hand .kc-card.target[data-bid]").last
        # In one step: a bot's move may redraw the hand between two.
        page.evaluate(
            "() => [...document.querySelectorAll('.kc-hand .kc-card.target[data-bid]')]"
            ".at(-1).scrollIntoView({block: 'end'})"
        )
        card.click()
        expect(page.locator("#kc-bid")).to_be_visible()
        assert_on_screen(page, "#kc-bid")
        assert_on_screen(page, "#kc-tutorial")
    page.screenshot(path=artifacts / f"kc-step-in-view-{size}.png")
    assert ana.errors == []
