"""Two small helps: a chat line from someone else while the chat is out of sight leaves a
mark that leads to it; asking Kingdom Cards for two seats points at "Allow two players"."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.browser.helpers import create_table, start_from_lobby, wait_for_your_turn

pytestmark = pytest.mark.browser


def test_new_chat_lines_out_of_sight_are_marked_until_read(new_player):
    ana = new_player("ana", width=1366, height=768)
    page = ana.page
    table_id = create_table(page, "kingdoms", seats=2, bots=1)
    start_from_lobby(page, table_id)
    wait_for_your_turn(page)
    page.evaluate("window.scrollTo(0, 0)")
    mark = page.locator("#chat-unread")
    expect(mark).to_be_hidden()

    bo = new_player("bo", width=1366, height=768)
    bo.page.goto(f"/tables/{table_id}/")
    bo.page.fill("#chat-input", "good game")
    bo.page.click("#chat-form button[type=submit]")
    expect(page.locator("#chat-log .chat-line", has_text="good game")).to_have_count(1)
    expect(mark).to_be_visible()
    expect(mark).to_have_text("Chat: 1 new ▾")
    expect(page.locator("#chat-heading")).to_have_text("Chat (1 new)")
    mark.click()
    expect(mark).to_be_hidden()
    expect(page.locator("#chat-heading")).to_have_text("Chat")
    # Our own line is never news to us.
    page.fill("#chat-input", "thanks")
    page.click("#chat-form button[type=submit]")
    page.evaluate("window.scrollTo(0, 0)")
    expect(page.locator("#chat-log .chat-line", has_text="thanks")).to_have_count(1)
    expect(mark).to_be_hidden()
    assert ana.errors == [] and bo.errors == []


def test_two_seats_of_kingdom_cards_point_at_allow_two_players(new_player):
    ana = new_player("ana", width=1366, height=768)
    page = ana.page
    page.select_option("#create-ruleset", "kingdom-cards")
    page.fill("#create-seats", "2")
    page.locator("#create-fill-bots").set_checked(True)
    page.click("#create-submit")
    expect(page.locator(".toast")).to_contain_text("For two, tick “Allow two players” below.")
    box = page.locator("#opt-allow_two_players")
    expect(box).to_be_focused()
    box.check()
    page.click("#create-submit")
    expect(page.locator(".toast", has_text="Table created")).to_be_visible()
    assert ana.errors == []
