"""The final scores as a player reads them: no stray "null", no seed or hash (those are on
the audit page, one plain link away)."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.browser.helpers import create_table, start_from_lobby, wait_for_your_turn

pytestmark = pytest.mark.browser


def finish_by_resigning(page) -> None:
    wait_for_your_turn(page)
    page.click("#resign")
    page.click("#resign-confirm")
    expect(page.locator("#turn-banner")).to_contain_text("Game over", timeout=30000)


def test_final_scores_read_as_words(new_player, artifacts):
    ana = new_player("ana", width=1366, height=768)
    page = ana.page
    table_id = create_table(page, "kingdoms", seats=2, bots=1)
    start_from_lobby(page, table_id)
    finish_by_resigning(page)
    result = page.locator("#result")
    expect(result).to_contain_text("Final scores")
    text = result.inner_text()
    assert "null" not in text
    seed = page.evaluate("window.kingdomTable.table.summary.seed")
    assert seed and seed not in text and "SHA-256" not in text
    link = result.get_by_role("link", name="Check that the shuffles were fair")
    expect(link).to_have_attribute("href", f"/tables/{table_id}/audit/")
    result.screenshot(path=artifacts / "final-scores.png")
    assert ana.errors == []
