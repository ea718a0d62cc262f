"""Kingdom Builder as a player meets it at 1366×900 and on a 390×844 phone: the turn bar
stays in view, the highlighted hexes are on screen (or a cue points at them), a phone
with nothing to pick opens on the player's own settlements, the board's labels and the
move log speak the same coordinates, and each log line's dot is the seat the line is
about."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.browser.helpers import (
    create_table,
    seat_two_players,
    start_from_lobby,
    wait_for_your_turn,
    whose_turn,
)

pytestmark = pytest.mark.browser

SIZES = {"desktop": (1366, 900), "phone": (390, 844)}
COLOURS = ["#E69F00", "#56B4E9", "#009E73", "#CC79A7", "#0072B2", "#D55E00"]

IN_WINDOW = """(el) => { const r = el.getBoundingClientRect();
  return r.top >= 0 && r.left >= 0 && r.bottom <= window.innerHeight && r.right <= window.innerWidth; }"""
# A highlighted hex the player can see: inside the window and inside the board's own box.
TARGETS_SEEN = """() => { const box = document.querySelector('.kb-board-wrap').getBoundingClientRect();
  return [...document.querySelectorAll('.kb-board .hex.target')].filter((g) => {
    const r = g.getBoundingClientRect();
    return r.left >= box.left - 1 && r.right <= box.right + 1 && r.top >= 0 && r.bottom <= window.innerHeight;
  }).length; }"""


def label(row: str, col: str) -> str:
    return f"{chr(65 + int(col))}{int(row) + 1}"


@pytest.mark.parametrize("size", SIZES)
def test_the_turn_bar_and_the_legal_hexes_stay_in_view(new_player, artifacts, size):
    width, height = SIZES[size]
    ana = new_player("ana", width=width, height=height)
    page = ana.page
    table_id = create_table(page, "kingdom-builder", seats=2, bots=1)
    start_from_lobby(page, table_id)
    expect(page.locator(".kb-board .hex")).to_have_count(400)
    wait_for_your_turn(page)
    bar = page.locator("#kb-turn-bar")
    expect(bar).to_contain_text("Your card")
    expect(bar.locator(".terrain-card")).to_have_count(1)
    expect(bar.locator("#kb-built")).to_have_text("0 of 3 built")
    expect(bar.locator("#kb-hint")).to_contain_text("Build on a highlighted")
    assert bar.evaluate(IN_WINDOW), "the turn bar is on screen"
    assert page.evaluate(TARGETS_SEEN) > 0, "a highlighted hex is on screen"
    if size == "phone":
        # Zoomed to a finger's size, panning in its own box, with the zoom buttons.
        wrap = page.locator(".kb-board-wrap")
        assert wrap.evaluate("el => el.scrollWidth > el.clientWidth + 10")
        expect(page.get_by_role("button", name="Whole board")).to_be_visible()
    page.screenshot(path=artifacts / f"kb-turn-bar-{size}.png")

    # Columns A–T and rows 1–20 around the board.
    axis = page.locator(".kb-axis text").all_text_contents()
    assert {chr(65 + c) for c in range(20)} <= set(axis)
    assert {str(r) for r in range(1, 21)} <= set(axis)

    # Build once: the log speaks the board's coordinates, the bar counts.
    target = page.locator(".kb-board .hex.target").first
    row, col = target.get_attribute("data-row"), target.get_attribute("data-col")
    target.click()
    built = page.locator("#log li", has_text=f"{ana.name} builds on")
    expect(built).to_have_count(1)
    expect(built).to_contain_text(f" at {label(row, col)}")
    expect(bar.locator("#kb-built")).to_have_text("1 of 3 built")

    # Scrolled to the bottom of the page, the bar is still on screen.
    page.evaluate("window.scrollTo(0, document.body.scrollHeight)")
    page.wait_for_timeout(100)
    assert bar.evaluate(IN_WINDOW), "the turn bar stays in view while the page scrolls"
    page.screenshot(path=artifacts / f"kb-turn-bar-{size}-scrolled.png")
    assert ana.errors == []


def test_each_log_dot_is_the_seat_the_line_is_about(new_player, artifacts):
    ana = new_player("ana", width=1366, height=900)
    page = ana.page
    table_id = create_table(page, "kingdom-builder", seats=2, bots=1)
    start_from_lobby(page, table_id)
    wait_for_your_turn(page)
    me = page.evaluate("window.kingdomTable.yourSeat")
    bot = 1 - me
    for built in range(1, 4):
        page.locator(".kb-board .hex.target").first.click()
        expect(page.locator("#log li", has_text=f"{ana.name} builds on")).to_have_count(built)
    page.locator("#end-turn").click()
    wait_for_your_turn(page)
    # The bot's turn began after our command, in the same batch of events as our last
    # move or the one after: the line is the bot's, and so is its dot.
    bot_name = page.evaluate(f"window.kingdomTable.names()[{bot}]")
    began = page.locator("#log li[data-type='turn_started']", has_text=f"{bot_name} begins turn")
    expect(began.first).to_be_attached()
    assert began.first.get_attribute("data-about") == str(bot)
    fill = began.first.locator(".seat-badge .badge-plain").get_attribute("fill")
    assert fill == COLOURS[bot]
    mine = page.locator("#log li[data-type='settlement_built']", has_text=ana.name).first
    assert mine.locator(".seat-badge .badge-plain").get_attribute("fill") == COLOURS[me]
    # The board's set-up is nobody's: the table's plain dot.
    set_up = page.locator("#log li[data-type='game_set_up']")
    expect(set_up.locator(".log-system")).to_have_count(1)
    # Every line carries the time it was recorded.
    expect(began.first.locator("time.log-time")).to_have_count(1)
    page.locator("#log").screenshot(path=artifacts / "log-dots.png")
    assert ana.errors == []


def test_on_a_laptop_the_hexes_are_large_and_locations_are_pictures(new_player, artifacts):
    ana = new_player("ana", width=1366, height=768)
    page = ana.page
    table_id = create_table(page, "kingdom-builder", seats=2, bots=1)
    start_from_lobby(page, table_id)
    expect(page.locator(".kb-board .hex")).to_have_count(400)
    # The board redraws as the bot's events arrive, so a hex found once may be gone by the
    # time it is measured: wait for a laid-out hex in the live board and measure that one.
    hex_width = page.wait_for_function(
        """() => {
            const shape = document.querySelector(".kb-board .hex .hex-shape");
            const width = shape ? shape.getBoundingClientRect().width : 0;
            return width > 0 ? width : null;
        }"""
    ).json_value()
    assert hex_width >= 36, f"a hex is {hex_width:.1f} px wide"
    assert page.evaluate("document.documentElement.scrollWidth") <= 1366
    # Every location hex shows its tile's picture (no three-letter code), and the
    # locations' list beside the board shows the same pictures with the names.
    locations = page.locator(".kb-board .hex[data-location]")
    assert locations.count() > 0
    assert page.locator(".kb-board .hex[data-location] .loc-icon").count() == locations.count()
    assert page.locator(".kb-board .hex[data-location] .hex-label").count() == 0
    expect(page.locator(".kb-location .loc-icon-svg").first).to_be_visible()
    page.screenshot(path=artifacts / "kb-laptop-hexes.png")
    assert ana.errors == []


# The build the page offers farthest right (or the first), sent as a click on it would be.
BUILD = """(rightmost) => { const t = window.kingdomTable;
  const builds = t.currentLegal().filter((c) => c.type === 'build');
  if (rightmost) builds.sort((a, b) => b.hex[1] - a.hex[1]);
  t.send(builds[0]); }"""
END_TURN = """() => { const t = window.kingdomTable;
  t.send(t.currentLegal().find((c) => c.type === 'end_turn')); }"""
# The player's settlements, and how many of them lie inside the board's visible box.
OWN_IN_BOX = """(seat) => { const box = document.querySelector('.kb-board-wrap').getBoundingClientRect();
  const own = [...document.querySelectorAll(`.kb-board .hex[data-piece="settlement"][data-seat="${seat}"]`)];
  const inside = own.filter((g) => { const r = g.getBoundingClientRect();
    return r.left >= box.left - 1 && r.right <= box.right + 1; });
  return [own.length, inside.length]; }"""


def _play_a_turn(player, rightmost: bool = False) -> None:
    """Build three settlements (the rightmost offered each time, or the first) and end."""
    page = player.page
    wait_for_your_turn(page)
    for built in range(1, 4):
        page.evaluate(BUILD, rightmost)
        expect(page.locator("#kb-built")).to_have_text(f"{built} of 3 built")
    page.evaluate(END_TURN)
    expect(page.locator("#turn-banner")).to_have_attribute("data-your-turn", "0")


def test_on_a_phone_a_table_opens_on_your_settlements_when_you_have_nothing_to_pick(
    new_player, artifacts
):
    ana = new_player("ana", width=390, height=844)
    bo = new_player("bo", width=1366, height=900)
    table_id, _frames = seat_two_players(ana, bo, "kingdom-builder")
    if whose_turn(ana, bo) is bo:
        _play_a_turn(bo)
    # Ana builds on the right of the board, out of the zoomed box's first view.
    _play_a_turn(ana, rightmost=True)
    me = ana.page.evaluate("window.kingdomTable.yourSeat")
    # It is bo's turn: ana opens the table with nothing to pick.
    ana.page.goto(f"/tables/{table_id}/")
    expect(ana.page.locator(".kb-board .hex")).to_have_count(400)
    expect(
        ana.page.locator(f".kb-board .hex[data-piece='settlement'][data-seat='{me}']")
    ).to_have_count(3)
    expect(ana.page.locator(".kb-board .hex.target")).to_have_count(0)
    wrap = ana.page.locator(".kb-board-wrap")
    assert wrap.evaluate("el => el.scrollWidth > el.clientWidth + 10"), "zoomed in, as on a phone"
    ana.page.wait_for_function(f"() => ({OWN_IN_BOX})({me})[1] === 3")
    assert wrap.evaluate("el => el.scrollLeft") > 0, "the box was panned to them"
    ana.page.screenshot(path=artifacts / "kb-phone-own-settlements.png")
    assert ana.errors == [] and bo.errors == []
