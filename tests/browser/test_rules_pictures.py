"""The rules pages' pictures in a real browser: each page draws its board, pieces, cards
and worked example with the tables' own renderers, with no console error, and fits a
phone's width."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

pytestmark = pytest.mark.browser

SIZES = {"desktop": (1366, 768), "phone": (390, 844)}
# Each game's pictures: the figure's selector and how many the page holds.
PICTURES = {
    "kingdom-builder": {
        "[data-picture='board'] svg.kb-board": 1,
        "[data-picture='kb-tile'] svg": 8,
        "[data-picture='kb-card'] svg.kb-board": 10,
        "[data-picture='worked'] svg.kb-board": 1,
    },
    "kingdoms": {
        "[data-picture='board'] svg": 1,
        "[data-picture='kingdoms-tile'] svg": 8,
        "[data-picture='kingdoms-castle'] svg": 4,
        "[data-picture='kingdoms-rule'] svg.kingdoms-row": 4,
        "[data-picture='worked'] svg": 1,
    },
    "kingdom-cards": {
        "[data-picture='kc-card'] .kc-card": 10,
        "[data-picture='board'] .kc-card": None,
        "[data-picture='worked'] .kc-card": None,
    },
}


@pytest.mark.parametrize("size", SIZES)
def test_each_rules_page_draws_its_pictures(new_player, artifacts, size):
    width, height = SIZES[size]
    ana = new_player("ana", width=width, height=height)
    page = ana.page
    for key, pictures in PICTURES.items():
        page.goto(f"/rules/{key}/")
        for selector, count in pictures.items():
            found = page.locator(selector)
            if count is None:
                expect(found.first).to_be_visible()
            else:
                expect(found).to_have_count(count)
                expect(found.first).to_be_visible()
                expect(found.last).to_be_visible()
        # Every caption is filled from the table's own texts.
        for caption in page.locator("[data-tile-text], [data-card-text]").all():
            assert caption.inner_text().strip(), caption.evaluate("e => e.outerHTML")
        # Each Kingdoms scoring rule's row: its six spaces filled, and beside it what it
        # pays, as the caption says.
        for figure in page.locator("[data-rule-figure]").all():
            row = figure.locator("svg.kingdoms-row")
            expect(row.locator(".cell-full")).to_have_count(6)
            gains = row.locator(".line-mark").get_attribute("data-gains").split(",")
            expect(figure.locator("[data-row-gains]")).to_have_text(
                f"Row 1 pays Orange {int(gains[0]):+d}, Sky blue {int(gains[1]):+d}."
            )
        # The worked example shows the engine's numbers for each player.
        expect(page.locator("#worked-example .worked-score")).not_to_have_count(0)
        assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
        page.screenshot(path=artifacts / f"rules-pictures-{key}-{size}.png", full_page=True)
        if key == "kingdoms":
            page.locator("#pictures-scoring").screenshot(
                path=artifacts / f"rules-pictures-kingdoms-scoring-{size}.png"
            )
    assert ana.errors == []
