"""The rules pages in a real browser: the lobby links every game's page and the table
page links its own game's; each page shows the game's variants, every table option the
lobby offers, and the engine's choices."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from tests.browser.helpers import api_json, create_table

pytestmark = pytest.mark.browser

SIZES = {"desktop": (1366, 900), "phone": (390, 844)}
# A variant each page's own words name.
VARIANT_WORDS = {
    "kingdoms": "Down to the Last Castle",
    "kingdom-cards": "auto complete",
    "kingdom-builder": "Nomads",
}


def check_rules_page(page, game: dict) -> None:
    expect(page).to_have_url(re.compile(rf"/rules/{game['key']}/$"))
    expect(page.locator("h1")).to_have_text(f"{game['name']}: the rules")
    variants = page.locator("#options")
    expect(variants.locator("h2")).to_have_text("Variants and table options")
    expect(variants).to_contain_text(VARIANT_WORDS[game["key"]])
    rows = variants.locator("tbody tr")
    expect(rows).to_have_count(len(game["options"]))
    for option in game["options"]:
        row = variants.locator(f"tr[data-option='{option['name']}']")
        # Named as the lobby's form names it, not by the API's name.
        expect(row.locator("th")).to_have_text(option["label"])
    expect(page.locator("#engine-choices li")).not_to_have_count(0)
    expect(page.locator("#engine-choices")).to_contain_text("ranks last")


@pytest.mark.parametrize("size", SIZES)
def test_the_lobby_links_each_games_rules_page(new_player, artifacts, size):
    width, height = SIZES[size]
    ana = new_player("ana", width=width, height=height)
    page = ana.page
    games = api_json(page, "/api/rulesets/")
    assert {g["key"] for g in games} == set(VARIANT_WORDS)
    for game in games:
        page.goto("/")
        link = page.locator(f".rules-links a[data-rules='{game['key']}']")
        expect(link).to_have_text(game["name"])
        link.click()
        check_rules_page(page, game)
        # The page fits the window's width: nothing to scroll sideways (a phone too).
        assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
        page.screenshot(path=artifacts / f"rules-{game['key']}-{size}.png", full_page=True)
    assert ana.errors == []


def test_the_table_page_links_its_games_rules(new_player, artifacts):
    ana = new_player("ana", width=1366, height=900)
    page = ana.page
    game = next(g for g in api_json(page, "/api/rulesets/") if g["key"] == "kingdom-builder")
    table_id = create_table(page, "kingdom-builder", seats=2, bots=1)
    page.goto(f"/tables/{table_id}/")
    link = page.locator(".rules-link")
    expect(link).to_be_visible()
    # A new tab, so the table (and its socket) stays open.
    with ana.context.expect_page() as opened:
        link.click()
    rules = opened.value
    rules.wait_for_load_state()
    check_rules_page(rules, game)
    expect(page).to_have_url(re.compile(rf"/tables/{table_id}/$"))
    # The page's own link back to the lobby chooses the game.
    expect(rules.get_by_role("link", name="Play it in the lobby")).to_have_attribute(
        "href", "/?ruleset=kingdom-builder"
    )
    rules.screenshot(path=artifacts / "rules-from-table.png")
    assert ana.errors == []
