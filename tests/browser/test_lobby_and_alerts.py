"""A returning player finds their games in progress at the top of the lobby; a player who
joined a table is taken to it when the host starts it; a turn that becomes yours beeps,
notifies while the tab is out of sight (once allowed), and shows in the tab's title."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.browser.helpers import TABLE_URL, create_table, start_from_lobby, wait_for_your_turn

pytestmark = pytest.mark.browser

# The page's sound and notifications, recorded: each beep's tone started, each notification.
RECORD_ALERTS = """
window.__beeps = 0; window.__notes = []; window.__hidden = false;
class FakeOscillator { constructor() { this.frequency = {value: 0}; }
  connect(node) { return node; } start() { window.__beeps += 1; } stop() {} }
class FakeGain { constructor() { this.gain = {setValueAtTime() {}, exponentialRampToValueAtTime() {}}; }
  connect(node) { return node; } }
window.AudioContext = class { constructor() { this.currentTime = 0; this.destination = {}; }
  createOscillator() { return new FakeOscillator(); } createGain() { return new FakeGain(); } };
window.Notification = class { static permission = "granted";
  static requestPermission() { return Promise.resolve("granted"); }
  constructor(title, options) { window.__notes.push([title, options && options.body]); } };
Object.defineProperty(document, "hidden", { get: () => window.__hidden });
"""


def test_a_game_in_progress_comes_first_in_the_lobby(new_player):
    ana = new_player("ana", width=1366, height=768)
    page = ana.page
    table_id = create_table(page, "kingdoms", seats=2, bots=1)
    start_from_lobby(page, table_id)
    page.goto("/")
    mine = page.locator("#my-games")
    expect(mine).to_be_visible()
    expect(mine).to_contain_text("Your games in progress")
    card = mine.locator(f".table-card[data-table-id='{table_id}']")
    expect(card).to_be_visible()
    expect(card.get_by_role("link", name="Play")).to_have_attribute("href", f"/tables/{table_id}/")
    # The default filter (open tables) shows no "nothing here" over our game, and the game
    # is listed once.
    expect(page.locator(f".table-card[data-table-id='{table_id}']")).to_have_count(1)
    expect(page.locator("#table-empty")).not_to_contain_text("No tables here yet")
    assert mine.bounding_box()["y"] < page.locator("#table-list").bounding_box()["y"]
    assert ana.errors == []


def test_the_player_who_joined_is_taken_to_the_table_when_it_starts(new_player):
    ana = new_player("ana")
    bo = new_player("bo")
    table_id = create_table(ana.page, "kingdoms", seats=2)
    bo_card = bo.page.locator(f".table-card[data-table-id='{table_id}']")
    bo_card.get_by_role("button", name="Join").click()
    expect(bo_card.get_by_role("button", name="Leave")).to_be_visible()
    start_from_lobby(ana.page, table_id)
    bo.page.wait_for_url(TABLE_URL)
    assert bo.page.url.endswith(f"/tables/{table_id}/")
    expect(bo.page.locator(".kingdoms-board")).to_be_visible()
    assert ana.errors == [] and bo.errors == []


def test_a_turn_that_becomes_yours_beeps_notifies_and_marks_the_title(new_player):
    ana = new_player("ana", width=1366, height=768)
    page = ana.page
    page.add_init_script(RECORD_ALERTS)
    table_id = create_table(page, "kingdoms", seats=2, bots=1)
    start_from_lobby(page, table_id)
    wait_for_your_turn(page)
    expect(page.locator("#turn-alerts")).to_have_text("Turn alerts: on")
    # Loading the page on our turn is no alert; the bot's move, then ours again, is.
    assert page.evaluate("window.__beeps") == 0
    assert page.title().startswith("● Your turn")
    page.evaluate("window.__hidden = true")
    sent_at = page.evaluate("window.kingdomTable.lastSeq")
    page.evaluate(
        """() => { const t = window.kingdomTable;
           t.send(t.currentLegal().find((c) => c.type === 'place_castle')); }"""
    )
    page.wait_for_function(
        "(seq) => { const t = window.kingdomTable; return !t.pending && t.lastSeq >= seq + 2"
        " && t.currentLegal().length > 0; }",
        arg=sent_at,
        timeout=30000,
    )
    page.wait_for_function("() => window.__beeps >= 1")
    assert page.evaluate("window.__beeps") == 1
    notes = page.evaluate("window.__notes")
    assert notes == [["Your turn · Kingdoms", "The table is waiting for your move."]]
    assert page.title().startswith("● Your turn")

    # Turned off, the next turn is silent.
    page.locator("#turn-alerts").click()
    expect(page.locator("#turn-alerts")).to_have_text("Turn alerts: off")
    sent_at = page.evaluate("window.kingdomTable.lastSeq")
    page.evaluate(
        """() => { const t = window.kingdomTable;
           t.send(t.currentLegal().find((c) => c.type === 'place_castle')); }"""
    )
    page.wait_for_function(
        "(seq) => { const t = window.kingdomTable; return !t.pending && t.lastSeq >= seq + 2"
        " && t.currentLegal().length > 0; }",
        arg=sent_at,
        timeout=30000,
    )
    assert page.evaluate("window.__beeps") == 1
    assert ana.errors == []


def test_a_newcomer_reads_each_game_in_a_sentence_and_plays_bots_at_once(new_player):
    ana = new_player("ana", width=1366, height=768)
    page = ana.page
    blurbs = page.locator(".game-blurb")
    expect(blurbs).to_have_count(3)
    kingdoms = page.locator(".game-blurb[data-ruleset='kingdoms']")
    expect(kingdoms).to_contain_text("castles and tiles")
    expect(kingdoms.get_by_role("link", name="How to play")).to_have_attribute(
        "href", "/rules/kingdoms/"
    )
    kingdoms.get_by_role("button", name="Play now against 2 bots").click()
    page.wait_for_url(TABLE_URL)
    expect(page.locator(".kingdoms-board")).to_be_visible()
    summary = page.evaluate("window.kingdomTable.table.summary")
    assert summary["status"] == "active"
    assert sorted(bool(s["bot"]) for s in summary["seats"]) == [False, True, True]
    assert ana.errors == []


ASK_ONCE = """
window.__asked = 0;
window.Notification = class { static permission = "default";
  static requestPermission() { window.__asked += 1; window.Notification.permission = "granted";
    return Promise.resolve("granted"); } };
"""


def test_the_alerts_toggle_asks_leave_to_notify_once(new_player):
    ana = new_player("ana", width=1366, height=768)
    page = ana.page
    page.add_init_script(ASK_ONCE)
    table_id = create_table(page, "kingdoms", seats=2, bots=1)
    start_from_lobby(page, table_id)
    toggle = page.locator("#turn-alerts")
    expect(toggle).to_have_text("Turn alerts: on · allow notifications")
    toggle.click()
    expect(toggle).to_have_text("Turn alerts: on")
    assert page.evaluate("window.__asked") == 1
    assert ana.errors == []
