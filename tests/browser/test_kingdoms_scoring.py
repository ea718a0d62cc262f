"""Kingdoms: each row's and column's value during an epoch, and the scored board with each
player's gain shown before the next epoch wipes it (until Continue, or a few seconds)."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.browser.helpers import create_table, start_from_lobby

pytestmark = pytest.mark.browser

# Our next legal move, or the interlude: whichever comes first.
READY = """() => !!document.getElementById('interlude')
  || (window.kingdomTable.currentLegal().length > 0 && !window.kingdomTable.pending)"""
MARKS = """(kind) => [...document.querySelectorAll(`.kingdoms-board .line-mark.${kind}`)]
  .map((g) => `${g.dataset.line}:${g.dataset.index}:${g.dataset.gains}`).sort()"""


def test_line_values_during_the_epoch_and_the_scored_board_before_the_next(new_player, artifacts):
    ana = new_player("ana", width=1366, height=900)
    page = ana.page
    table_id = create_table(page, "kingdoms", seats=2, bots=1)
    start_from_lobby(page, table_id)
    expect(page.locator(".kingdoms-board")).to_be_visible()
    checked_values = False
    for _ in range(60):
        page.wait_for_function(READY, timeout=20000)
        if page.locator("#interlude").count():
            break
        view_values = page.evaluate(
            """() => window.kingdomTable.view.line_values
                .map((l) => `${l.line}:${l.index}:${l.gains.join(',')}`).sort()"""
        )
        open_marks = page.evaluate(MARKS, "open")
        # Every open line the engine values is drawn with exactly those gains.
        assert set(open_marks) <= set(view_values)
        if any(any(int(g) for g in m.split(":")[2].split(",")) for m in open_marks):
            checked_values = True
            page.screenshot(path=artifacts / "kingdoms-line-values.png")
        page.evaluate("window.kingdomTable.send(window.kingdomTable.currentLegal()[0])")
    else:
        pytest.fail("the first epoch never ended")
    assert checked_values, "some line paid someone during the epoch"

    box = page.locator("#interlude")
    expect(box).to_contain_text("Epoch 1 scored")
    scored = page.locator("#log li[data-type='epoch_scored']").first
    seq = int(scored.get_attribute("data-seq"))
    events = page.evaluate(
        f"fetch('/api/tables/{table_id}/events/?after={seq - 1}&limit=1').then(r => r.json())"
    )
    gains = events["events"][0]["data"]["gains"]
    names = page.evaluate("window.kingdomTable.names()")
    for seat, gain in enumerate(gains):
        expect(box.locator(f"li[data-seat='{seat}']")).to_contain_text(
            f"{names[str(seat)]} {'+' if gain > 0 else ''}{gain} gold"
        )
    # The scored board: all 11 lines marked as scored, the pieces still on it, while the
    # live state is already the next epoch.
    expect(page.locator(".kingdoms-board .line-mark.scored")).to_have_count(11)
    assert page.locator(".kingdoms-board .cell-full").count() > 20
    assert page.evaluate("window.kingdomTable.view.epoch") == 2
    page.screenshot(path=artifacts / "kingdoms-epoch-scored.png")
    page.set_viewport_size({"width": 390, "height": 844})
    box.scroll_into_view_if_needed()
    page.screenshot(path=artifacts / "kingdoms-epoch-scored-phone.png")
    page.set_viewport_size({"width": 1366, "height": 900})

    page.click("#interlude-continue")
    expect(box).to_have_count(0)
    expect(page.locator(".kingdoms-info")).to_contain_text("Epoch 2")
    assert page.locator(".kingdoms-board .line-mark.scored").count() == 0
    assert ana.errors == []
