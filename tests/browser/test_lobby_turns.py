"""Your turn, seen from the lobby: a game in progress where a move made it your turn is
marked on its card and counted beside the navigation's lobby link, live, without a
reload; and from any other page, such as another table, the count comes all the same;
at 1366×768 and on a phone (390×844)."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.browser.helpers import seat_two_players, wait_for_your_turn, whose_turn

pytestmark = pytest.mark.browser

PLACE_A_CASTLE = """() => { const t = window.kingdomTable;
  t.send(t.currentLegal().find((c) => c.type === 'place_castle')); }"""


@pytest.mark.parametrize(("width", "height"), [(1366, 768), (390, 844)])
def test_the_lobby_marks_the_game_where_it_became_your_turn(new_player, artifacts, width, height):
    ana = new_player("ana", width=1366, height=768)
    bo = new_player("bo", width=width, height=height)
    table_id, _frames = seat_two_players(ana, bo, "kingdoms")
    # Make it ana's turn, with bo in the lobby.
    if whose_turn(ana, bo) is bo:
        bo.page.evaluate(PLACE_A_CASTLE)
        wait_for_your_turn(ana.page)
    bo.page.goto("/")
    card = bo.page.locator(f"#my-games .table-card[data-table-id='{table_id}']")
    expect(card).to_be_visible()
    expect(card.locator("[data-testid='your-turn']")).to_have_count(0)
    expect(bo.page.locator("#nav-turns")).to_be_hidden()

    ana.page.evaluate(PLACE_A_CASTLE)

    expect(card.locator("[data-testid='your-turn']")).to_have_text("your turn")
    expect(bo.page.locator("#nav-turns")).to_have_text("1")
    bo.page.screenshot(path=str(artifacts / f"lobby-your-turn-{width}.png"))
    assert ana.errors == [] and bo.errors == []


def _ana_to_move(ana, bo) -> None:
    """At the table both pages show, make it ana's turn."""
    if whose_turn(ana, bo) is bo:
        bo.page.evaluate(PLACE_A_CASTLE)
        wait_for_your_turn(ana.page)


@pytest.mark.parametrize(("width", "height"), [(1366, 768), (390, 844)])
def test_at_one_table_the_navigation_counts_your_turn_at_another(
    new_player, artifacts, width, height
):
    ana = new_player("ana", width=1366, height=768)
    bo = new_player("bo", width=width, height=height)
    table_a, _frames = seat_two_players(ana, bo, "kingdoms")
    _ana_to_move(ana, bo)
    bo.page.goto("/")
    table_b, _frames = seat_two_players(ana, bo, "kingdoms")
    _ana_to_move(ana, bo)
    # Bo sits at table A, where it is ana's turn, as it is at table B.
    bo.page.goto(f"/tables/{table_a}/")
    expect(bo.page.locator("#turn-banner")).to_have_attribute("data-your-turn", "0")
    badge = bo.page.locator("#nav-turns")
    expect(badge).to_be_hidden()
    # Ana moves at table B: it is bo's turn there, and bo's page at A counts it.
    ana.page.evaluate(PLACE_A_CASTLE)
    expect(badge).to_be_visible()
    expect(badge).to_have_text("1")
    expect(badge).to_have_attribute("title", "1 game waits for your move")
    expect(bo.page.locator("#turn-banner")).to_have_attribute("data-your-turn", "0")
    assert table_b not in bo.page.url
    bo.page.screenshot(path=str(artifacts / f"table-nav-your-turn-{width}.png"))
    assert ana.errors == [] and bo.errors == []
