"""Kingdoms: each row's and column's value during an epoch, and the scored board with each
player's gain, row by row and column by column, in view before the next epoch wipes it
(until Continue, or a few seconds), with no turn offered meanwhile."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.browser.helpers import create_table, start_from_lobby

pytestmark = pytest.mark.browser

# Our next legal move, or the interlude: whichever comes first.
READY = """() => !!document.getElementById('interlude')
  || (window.kingdomTable.currentLegal().length > 0 && !window.kingdomTable.pending)"""
IN_WINDOW = """(el) => { const r = el.getBoundingClientRect();
  return r.top >= 0 && r.left >= 0 && r.bottom <= window.innerHeight && r.right <= window.innerWidth; }"""
MARKS = """(kind) => [...document.querySelectorAll(`.kingdoms-board .line-mark.${kind}`)]
  .map((g) => `${g.dataset.line}:${g.dataset.index}:${g.dataset.gains}`).sort()"""


def test_line_values_during_the_epoch_and_the_scored_board_before_the_next(new_player, artifacts):
    ana = new_player("ana", width=1366, height=768)
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
    signed = {1: "+", -1: "−", 0: ""}
    for seat, gain in enumerate(gains):
        expect(box.locator(f"tr[data-seat='{seat}']")).to_contain_text(
            f"{names[str(seat)]} {signed[(gain > 0) - (gain < 0)]}{abs(gain)} gold"
        )
    # The scoring is on screen, and nothing on the page says otherwise: no turn offered,
    # no controls, no bot thinking, until the player continues.
    assert box.evaluate(IN_WINDOW), "the epoch's scoring is on screen"
    banner = page.locator("#turn-banner")
    expect(banner).to_contain_text("Epoch 1 scored")
    expect(banner).to_have_attribute("data-your-turn", "0")
    expect(banner).not_to_contain_text("Your turn")
    expect(banner).not_to_contain_text("thinking")
    expect(page.locator("#draw-tile")).to_have_count(0)
    expect(page.locator("#kingdoms-hint")).to_have_count(0)
    # The seats read as the scored board does: nobody to act, each one's gold after scoring.
    expect(page.locator("#seats .tag-turn")).to_have_count(0)
    gold_after = events["events"][0]["data"]["gold"]
    for seat, gold in enumerate(gold_after):
        expect(page.locator(f"#seats li[data-seat='{seat}'] .gold")).to_have_text(f"{gold} gold")
    # Each player's gain is broken down into the rows and columns that paid it.
    lines = events["events"][0]["data"]["lines"]
    for seat, gain in enumerate(gains):
        detail = box.locator(f"tr[data-seat='{seat}'] .interlude-detail").inner_text()
        paid = [line for line in lines if line["gains"][seat]]
        for line in paid:
            assert f"{line['line']} {line['index'] + 1} " in detail, (detail, line)
        assert sum(line["gains"][seat] for line in paid) == gain
    # The scored board: all 11 lines marked as scored, the pieces still on it, while the
    # live state is already the next epoch.
    expect(page.locator(".kingdoms-board .line-mark.scored")).to_have_count(11)
    assert page.locator(".kingdoms-board .cell-full").count() > 20
    assert page.evaluate("window.kingdomTable.view.epoch") == 2
    page.screenshot(path=artifacts / "kingdoms-epoch-scored.png")
    page.set_viewport_size({"width": 390, "height": 844})
    page.evaluate("window.scrollTo(0, 0)")
    assert box.evaluate(IN_WINDOW), "the epoch's scoring is on a phone's screen"
    expect(page.locator("#interlude-continue")).to_be_visible()
    page.screenshot(path=artifacts / "kingdoms-epoch-scored-phone.png")
    page.set_viewport_size({"width": 1366, "height": 768})

    page.click("#interlude-continue")
    expect(box).to_have_count(0)
    expect(page.locator(".kingdoms-info")).to_contain_text("Epoch 2")
    assert page.locator(".kingdoms-board .line-mark.scored").count() == 0
    assert ana.errors == []


# Each seat's gain label (its dot and number) as one box; the pairs of boxes closer than
# 2 px, from any rows and columns.
TOUCHING = """() => {
  const boxes = [];
  for (const g of document.querySelectorAll('.kingdoms-board .line-mark')) {
    const parts = [...g.querySelectorAll('circle, text')];
    for (let i = 0; i < parts.length; i += 2) {
      const rects = parts.slice(i, i + 2).map((p) => p.getBoundingClientRect());
      boxes.push({ name: `${g.dataset.line}${g.dataset.index}#${i / 2}`,
        left: Math.min(...rects.map((r) => r.left)), right: Math.max(...rects.map((r) => r.right)),
        top: Math.min(...rects.map((r) => r.top)), bottom: Math.max(...rects.map((r) => r.bottom)) });
    }
  }
  const near = [];
  for (let a = 0; a < boxes.length; a++) for (let b = a + 1; b < boxes.length; b++) {
    const p = boxes[a], q = boxes[b];
    if (p.left < q.right + 2 && q.left < p.right + 2 && p.top < q.bottom + 2 && q.top < p.bottom + 2)
      near.push(`${p.name}~${q.name}`);
  }
  return near;
}"""


@pytest.mark.parametrize("size", [(1366, 768), (390, 844)])
def test_gain_labels_of_rows_and_columns_never_touch(new_player, artifacts, size):
    ana = new_player("ana", width=size[0], height=size[1])
    page = ana.page
    table_id = create_table(page, "kingdoms", seats=4, bots=3)
    start_from_lobby(page, table_id)
    expect(page.locator(".kingdoms-board")).to_be_visible()
    labels = 0
    for _ in range(40):
        page.wait_for_function(READY, timeout=30000)
        assert page.evaluate(TOUCHING) == []
        labels = max(labels, page.locator(".kingdoms-board .line-mark circle").count())
        if page.locator("#interlude").count():
            break
        page.evaluate("window.kingdomTable.send(window.kingdomTable.currentLegal()[0])")
    assert labels >= 4, "some lines paid several seats"
    page.screenshot(path=artifacts / f"kingdoms-gains-{size[0]}.png", full_page=True)
