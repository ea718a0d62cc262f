"""The lobby's create form in a real browser: table settings reach the server."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.browser.helpers import api_json, create_table

pytestmark = pytest.mark.browser


def test_a_table_with_hard_bots_sets_their_thinking_time(new_player):
    ana = new_player("ana")
    page = ana.page
    table_id = create_table(page, "kingdoms", seats=2, bots=1, level="hard", think_seconds=0.5)
    card = page.locator(f".table-card[data-table-id='{table_id}']")
    expect(card).to_contain_text("hard bots think 0.5 s")
    table = api_json(page, f"/api/tables/{table_id}/")
    assert table["bot_think_seconds"] == 0.5
    assert [seat["bot"] for seat in table["seats"]] == [None, "hard"]
    assert ana.errors == []
