"""Kingdom Builder in a real browser: build on highlighted hexes, bots live, resign."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.browser.helpers import (
    api_json,
    create_table,
    log_seqs,
    start_from_lobby,
    wait_for_your_turn,
)

pytestmark = pytest.mark.browser


def test_kingdom_builder_turn_by_clicking_highlighted_hexes(new_player, artifacts):
    ana = new_player("ana")
    page = ana.page
    table_id = create_table(page, "kingdom-builder", seats=2, bots=1)
    start_from_lobby(page, table_id)
    board = page.locator(".kb-board")
    expect(board).to_be_visible()
    expect(board.locator(".hex")).to_have_count(400)
    wait_for_your_turn(page)
    page.screenshot(path=artifacts / "table-kingdom-builder.png", full_page=True)

    # The mandatory action: three settlements, each on a highlighted hex.
    for built in range(1, 4):
        target = board.locator(".hex.target").first
        expect(target).to_be_visible()
        row, col = target.get_attribute("data-row"), target.get_attribute("data-col")
        target.click()
        expect(
            page.locator("#log li", has_text=f"{ana.name} builds on").filter(
                has_text=f"[{row}, {col}]"
            )
        ).to_have_count(1)
        expect(
            page.locator(f".kb-board .hex[data-row='{row}'][data-col='{col}']")
        ).to_have_attribute("data-seat", str(page.evaluate("window.kingdomTable.yourSeat")))
        expect(page.locator("#log li", has_text=f"{ana.name} builds on")).to_have_count(built)
    end_turn = page.locator("#end-turn")
    if end_turn.count():
        end_turn.click()
    # The bot's turn arrives live.
    page.wait_for_function(
        "() => [...document.querySelectorAll('#log li')].some("
        "li => li.dataset.actor.startsWith('bot:') && li.textContent.includes('builds on'))"
        " && document.querySelector('#log li:last-child').dataset.actor.startsWith('bot:')"
    )
    page.click("#resign")
    page.click("#resign-confirm")
    expect(page.locator("#result")).to_be_visible()
    expect(page.locator("#result tbody tr").last).to_contain_text(ana.name)
    head = page.evaluate("window.kingdomTable.lastSeq")
    assert log_seqs(page) == list(range(1, head + 1))
    assert ana.errors == []


def test_kingdom_builder_with_nomads_and_crossroads_from_the_lobby(new_player, artifacts):
    ana = new_player("ana")
    page = ana.page
    options = {"nomads": True, "crossroads": True}
    table_id = create_table(page, "kingdom-builder", seats=2, bots=1, options=options)
    start_from_lobby(page, table_id)
    board = page.locator(".kb-board")
    expect(board.locator(".hex")).to_have_count(400)
    view = api_json(page, f"/api/tables/{table_id}/")["view"]
    assert view["options"]["nomads"] and view["options"]["crossroads"]
    # Every nomad space of the laid board is drawn, and each Crossroads task is shown.
    spaces = len(view["board"]["nomad_spaces"])
    expect(board.locator(".nomad-space")).to_have_count(spaces)
    expect(page.locator(".walls-left")).to_contain_text("Stone walls left: 25")
    expect(page.locator(".kb-tasks .kb-card")).to_have_count(len(view["board"]["tasks"]))
    wait_for_your_turn(page)
    page.screenshot(path=artifacts / "table-kingdom-builder-expansions.png", full_page=True)
    for built in range(1, 4):
        board.locator(".hex.target").first.click()
        expect(page.locator("#log li", has_text=f"{ana.name} builds on")).to_have_count(built)
    assert ana.errors == []
