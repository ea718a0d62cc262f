"""Kingdoms' special tiles explain themselves on hover: the Dragon, the Gold Mine, the
Wizard and a Mountain each say what they do to the rows and columns (or castles)."""

from __future__ import annotations

import random

import pytest
from playwright.sync_api import expect

from games.rules import get_ruleset

pytestmark = pytest.mark.browser

MOUNT = """async ([view]) => {
    const renderer = await import('/static/js/games/kingdoms.js');
    const root = document.createElement('div');
    root.id = 'sandbox';
    document.querySelector('main').prepend(root);
    const ctx = { seat: 0, spectator: false, names: {0: 'Ana', 1: 'Bo'}, send: () => {},
        pending: false, replay: false, over: false, shapes: false, state: {}, lastMoves: [],
        animatedUpTo: 0 };
    ctx.rerender = () => renderer.render(root, view, [], ctx);
    ctx.rerender();
}"""
MEANINGS = {
    "dragon": "Dragon: cancels the resources",
    "gold_mine": "Gold Mine: doubles the total",
    "wizard": "Wizard: each castle next to it counts one rank more",
    "mountain1": "Mountain: cuts its row and column in two",
    "+3a": "Resource +3: adds 3",
    "-2a": "Hazard −2: takes 2",
}


def test_each_special_tile_says_what_it_does(browser, server_url):
    rules = get_ruleset("kingdoms")
    state = None
    for event in rules.setup({}, 2, random.Random(3)):
        state = rules.evolve(state, event)
    view = rules.view(state, 0)
    for i, tile in enumerate(MEANINGS):
        view["grid"][i // 6][i % 6] = {"piece": "tile", "tile": tile}
    context = browser.new_context(base_url=server_url, viewport={"width": 1366, "height": 768})
    page = context.new_page()
    page.goto("/")
    page.evaluate(MOUNT, [view])
    for tile, words in MEANINGS.items():
        title = page.locator(f"#sandbox .tile[data-tile='{tile}'] > title")
        expect(title).to_have_count(1)
        assert title.text_content().startswith(words), title.text_content()
        cell = page.locator(f"#sandbox .cell:has(.tile[data-tile='{tile}'])")
        assert words in cell.get_attribute("aria-label")
    context.close()
