"""The table's "?" in a real browser: it opens on hover and on a click with a mouse, on a
tap on a touch screen, and shows how the game scores and what the player may do now; on a
touch screen a tap shows a tooltip too."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.browser.helpers import create_table, start_from_lobby, wait_for_your_turn

pytestmark = pytest.mark.browser


def check_open(page) -> None:
    help_box = page.locator("#table-help")
    expect(help_box).to_be_visible()
    expect(page.locator("#help-toggle")).to_have_attribute("aria-expanded", "true")
    expect(help_box).to_contain_text("How this game scores")
    expect(help_box).to_contain_text("each row and each column pays")
    # The options of this moment, in the words of the table: the player's turn in Kingdoms.
    expect(help_box.locator(".help-now")).to_contain_text(
        "Put one of your castles on an empty space."
    )
    # No engine names.
    assert "place_castle" not in help_box.inner_text()
    # The box stays inside the window.
    box = help_box.bounding_box()
    width = page.viewport_size["width"]
    assert box["x"] >= 0 and box["x"] + box["width"] <= width


def test_the_question_mark_opens_on_hover_click_and_tap(new_player, browser, server_url, artifacts):
    ana = new_player("ana", width=1366, height=768)
    page = ana.page
    table_id = create_table(page, "kingdoms", seats=2, bots=1)
    start_from_lobby(page, table_id)
    wait_for_your_turn(page)
    toggle = page.locator("#help-toggle")
    help_box = page.locator("#table-help")
    expect(help_box).to_be_hidden()

    # A mouse: hovering shows it, moving away hides it.
    toggle.hover()
    check_open(page)
    page.mouse.move(5, 700)
    expect(help_box).to_be_hidden()
    # A click pins it open; the next click closes it.
    toggle.click()
    check_open(page)
    page.mouse.move(5, 700)
    expect(help_box).to_be_visible()
    page.screenshot(path=artifacts / "table-help-desktop.png")
    toggle.click()
    expect(help_box).to_be_hidden()
    toggle.click()
    page.keyboard.press("Escape")
    expect(help_box).to_be_hidden()
    assert ana.errors == []

    # A phone: no hover, a tap opens it; a tap elsewhere closes it.
    phone = browser.new_context(
        base_url=server_url,
        viewport={"width": 390, "height": 844},
        has_touch=True,
        is_mobile=True,
        storage_state=ana.context.storage_state(),
    )
    try:
        errors: list[str] = []
        tapper = phone.new_page()
        tapper.on("pageerror", lambda exc: errors.append(str(exc)))
        tapper.goto(f"/tables/{table_id}/")
        wait_for_your_turn(tapper)
        tapper.locator("#help-toggle").tap()
        check_open(tapper)
        tapper.screenshot(path=artifacts / "table-help-phone.png")
        tapper.locator("#table-title").tap()
        expect(tapper.locator("#table-help")).to_be_hidden()
        # A tooltip, hover-only with a mouse, shows on a tap.
        tapper.locator("#seats .castles-left").first.tap()
        expect(tapper.locator(".tap-tip")).to_have_text("castles in hand by rank")
        tapper.locator("#table-title").tap()
        expect(tapper.locator(".tap-tip")).to_have_count(0)
        assert errors == []
    finally:
        phone.close()


def test_the_question_mark_names_kingdom_builder_options_on_a_phone(
    new_player, browser, server_url, artifacts
):
    ana = new_player("ana", width=390, height=844)
    table_id = create_table(ana.page, "kingdom-builder", seats=2, bots=1)
    start_from_lobby(ana.page, table_id)
    phone = browser.new_context(
        base_url=server_url,
        viewport={"width": 390, "height": 844},
        has_touch=True,
        is_mobile=True,
        storage_state=ana.context.storage_state(),
    )
    try:
        errors: list[str] = []
        page = phone.new_page()
        page.on("pageerror", lambda exc: errors.append(str(exc)))
        page.goto(f"/tables/{table_id}/")
        wait_for_your_turn(page)
        page.locator("#help-toggle").tap()
        help_box = page.locator("#table-help")
        expect(help_box).to_be_visible()
        expect(help_box).to_contain_text("The three Kingdom Builder cards of this game")
        expect(help_box.locator(".help-now")).to_contain_text(
            "Build a settlement on a highlighted hex of your terrain."
        )
        page.screenshot(path=artifacts / "table-help-kingdom-builder-phone.png")
        assert errors == []
    finally:
        phone.close()
