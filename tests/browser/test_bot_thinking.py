"""A hard bot that thinks: the turn banner shows a progress bar against the table's think
budget (set in the create form), and the bar advances while the bot thinks."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.browser.helpers import api_json, create_table, start_from_lobby

pytestmark = pytest.mark.browser

SIZES = {"desktop": (1366, 900), "phone": (390, 844)}

# Read the bar while the bot thinks about one move (no event in between: each event
# restarts the count) until a second reading is larger; or report that the bot's turn
# ended first (a quick move), so the test plays on to the bot's next turn.
TWO_READS = """async () => {
  const read = () => {
    const bar = document.getElementById('bot-thinking');
    return bar && {seq: window.kingdomTable.lastSeq, now: Number(bar.getAttribute('aria-valuenow')),
      max: bar.getAttribute('aria-valuemax'), label: bar.getAttribute('aria-label'),
      role: bar.getAttribute('role'), inBanner: !!bar.closest('#turn-banner'),
      text: document.getElementById('bot-thinking-text').textContent};
  };
  let first = read();
  for (let i = 0; i < 400 && first; i++) {
    await new Promise((done) => setTimeout(done, 50));
    const next = read();
    if (!next) return {first, next};
    if (next.seq !== first.seq) { first = next; continue; }
    if (next.now > first.now) return {first, next};
  }
  return {first, next: read()};
}"""
OUR_TURN_OR_THINKING = """() => document.getElementById('bot-thinking')
  || document.querySelector('#turn-banner[data-your-turn="1"]')
     && (document.querySelector('.kb-board .hex.target') || document.getElementById('end-turn'))"""


@pytest.mark.parametrize("size", SIZES)
def test_the_thinking_bar_advances_against_the_budget(new_player, artifacts, size):
    width, height = SIZES[size]
    ana = new_player("ana", width=width, height=height)
    page = ana.page
    table_id = create_table(page, "kingdom-builder", seats=2, bots=1, level="hard", think_seconds=3)
    start_from_lobby(page, table_id)
    expect(page.locator(".kb-board .hex")).to_have_count(400)
    # Play our builds until the bot thinks long enough for the bar to be read twice.
    reads = None
    for _ in range(12):
        # A hard bot thinks 3 s of CPU; on a loaded 2-core CI machine that takes longer.
        page.wait_for_function(OUR_TURN_OR_THINKING, timeout=60000)
        if page.locator("#bot-thinking").count():
            page.screenshot(path=artifacts / f"bot-thinking-advances-{size}.png")
            reads = page.evaluate(TWO_READS)
            if reads["next"]:
                break
            continue
        # A build, or End turn once the three are built (the turn waits for it); then the
        # move's news, so the next look sees the position after it.
        before = page.evaluate("window.kingdomTable.lastSeq")
        page.locator(".kb-board .hex.target, #end-turn").first.click()
        page.wait_for_function("(seq) => window.kingdomTable.lastSeq > seq", arg=before)
    assert reads and reads["next"], f"the bot never thought long enough to read: {reads}"
    first, second = reads["first"], reads["next"]
    assert first["role"] == "progressbar" and first["inBanner"]
    assert first["max"] == "3", "the budget set in the create form"
    seats = api_json(page, f"/api/tables/{table_id}/")["seats"]
    bot_name = next(s["name"] for s in seats if s["bot"])
    assert bot_name.endswith("(hard)")
    assert first["label"] == f"{bot_name} thinking"
    assert "thinking…" in first["text"]
    assert second["seq"] == first["seq"] and second["now"] > first["now"], reads
    assert second["now"] <= 3
    assert ana.errors == []
