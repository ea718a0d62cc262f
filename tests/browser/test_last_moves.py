"""What the others just did is marked on the board: the pieces placed since your own last
move wear a ring (Kingdoms castles and tiles, Kingdom Builder settlements, Kingdom Cards
cards laid), and each new one plays a short arrival. On a phone the marked pieces are on
screen when your turn comes back."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.browser.helpers import create_table, start_from_lobby, wait_for_your_turn

pytestmark = pytest.mark.browser

SIZES = {"desktop": (1366, 768), "phone": (390, 844)}
IN_WINDOW = """(el) => { const r = el.getBoundingClientRect();
  return r.top >= 0 && r.left >= 0 && r.bottom <= window.innerHeight && r.right <= window.innerWidth; }"""
# The log's placing lines after our own last one: [seq, type, seat] each.
PLACED_SINCE_MINE = """([types, seat]) => {
  const placed = [...document.querySelectorAll('#log li')].filter((li) => types.includes(li.dataset.type));
  let last = -1;
  placed.forEach((li, i) => { if (li.dataset.about === String(seat)) last = i; });
  return placed.slice(last + 1).map((li) => [Number(li.dataset.seq), li.dataset.type, li.dataset.about]);
}"""
KINGDOMS_PLACING = ["castle_placed", "tile_placed", "starting_tile_placed"]


def play_first(page, kind: str) -> None:
    page.evaluate(
        """(kind) => { const t = window.kingdomTable;
           t.send(t.currentLegal().find((c) => c.type === kind) || t.currentLegal()[0]); }""",
        kind,
    )


@pytest.mark.parametrize("size", SIZES)
def test_kingdoms_marks_the_bots_moves_since_yours_on_screen(new_player, artifacts, size):
    width, height = SIZES[size]
    ana = new_player("ana", width=width, height=height)
    page = ana.page
    table_id = create_table(page, "kingdoms", seats=3, bots=2)
    start_from_lobby(page, table_id)
    wait_for_your_turn(page)
    me = page.evaluate("window.kingdomTable.yourSeat")
    sent_at = page.evaluate("window.kingdomTable.lastSeq")
    play_first(page, "place_castle")
    # Our castle, then both bots' moves, then our turn again.
    page.wait_for_function(
        "(seq) => { const t = window.kingdomTable; return !t.pending && t.lastSeq >= seq + 3"
        " && t.currentLegal().length > 0; }",
        arg=sent_at,
        timeout=30000,
    )

    since = page.evaluate(PLACED_SINCE_MINE, [KINGDOMS_PLACING, me])
    assert len(since) == 2, since  # both bots placed a castle after ours
    marked = page.locator(".kingdoms-board .cell.last-move")
    expect(marked).to_have_count(2)
    for cell in marked.all():
        assert cell.locator(".last-ring").count() == 1
        assert cell.evaluate(IN_WINDOW), "a marked piece is on screen"
        assert cell.locator(f".castle[data-seat='{me}']").count() == 0  # a bot's piece
    # The newest one says so to a screen reader.
    labels = [c.get_attribute("aria-label") for c in marked.all()]
    assert sum("the last move" in label for label in labels) == 1
    # Our own castle is not marked while the others' moves are.
    mine = page.locator(f".kingdoms-board .cell .castle[data-seat='{me}']")
    expect(mine).to_have_count(1)
    assert "last-move" not in mine.locator("xpath=..").get_attribute("class")
    page.screenshot(path=artifacts / f"last-moves-kingdoms-{size}.png")
    assert ana.errors == []


def test_kingdom_builder_marks_the_bots_settlements_on_a_phone(new_player, artifacts):
    ana = new_player("ana", width=390, height=844)
    page = ana.page
    table_id = create_table(page, "kingdom-builder", seats=2, bots=1)
    start_from_lobby(page, table_id)
    wait_for_your_turn(page)
    me = page.evaluate("window.kingdomTable.yourSeat")
    for built in (1, 2):
        page.locator(".kb-board .hex.target").first.click()
        expect(page.locator("#log li", has_text=f"{ana.name} builds on")).to_have_count(built)
    # Our own builds of this turn are marked while nobody has moved since.
    expect(page.locator(".kb-board .hex.last-move")).to_have_count(2)
    sent_at = page.evaluate("window.kingdomTable.lastSeq")
    page.locator(".kb-board .hex.target").first.click()
    expect(page.locator("#log li", has_text=f"{ana.name} builds on")).to_have_count(3)
    if page.locator("#end-turn").count():
        page.locator("#end-turn").click()
    # The bot's turn, then ours again.
    page.wait_for_function(
        "(seq) => { const t = window.kingdomTable; return !t.pending && t.lastSeq > seq + 3"
        " && t.currentLegal().length > 0; }",
        arg=sent_at,
        timeout=30000,
    )
    since = page.evaluate(PLACED_SINCE_MINE, [["settlement_built", "settlement_moved"], me])
    assert since and all(seat != str(me) for _, _, seat in since)
    marked = page.locator(".kb-board .hex.last-move")
    # One ring per piece where it stands now: a settlement the bot built and then moved
    # (Paddock, Barn) is two lines of the log and one ring.
    expect(marked.first).to_be_visible()
    assert 1 <= marked.count() <= len(since)
    bot = since[0][2]
    for hex_ in marked.all():
        assert hex_.get_attribute("data-seat") == bot
    # Each marked piece is inside the board's box, or a cue at the box's edge points at it.
    box = page.locator(".kb-board-wrap").bounding_box()
    outside = {"left": 0, "right": 0}
    for hex_ in marked.all():
        r = hex_.bounding_box()
        if r["x"] + r["width"] < box["x"] + 4:
            outside["left"] += 1
        elif r["x"] > box["x"] + box["width"] - 4:
            outside["right"] += 1
    for side, n in outside.items():
        cue = page.locator(f".kb-edge[data-side='{side}']")
        if n:
            expect(cue).to_be_visible()
            expect(cue).to_have_attribute("data-last-moves", str(n))
    page.screenshot(path=artifacts / "last-moves-kb-phone.png")
    assert ana.errors == []
