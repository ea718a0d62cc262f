"""Kingdom Cards' faces as a player reads them: every card's words fit inside it (the
"commander" too, on a laptop and a phone), hovering a card says what it is for, a picked
card looks unlike a playable one, and once the game is over the hand is only shown (no
tips, no reordering) and each revealed hand is a row of small cards."""

from __future__ import annotations

import random

import pytest
from playwright.sync_api import expect

from games.rules import get_ruleset

pytestmark = pytest.mark.browser

EVERY_CARD = [f"{c}{v}a" for c in "RYB" for v in range(1, 10)] + ["T1"]
MOUNT = """async ([view, legal, over]) => {
    const renderer = await import('/static/js/games/kingdom_cards.js');
    let root = document.getElementById('sandbox');
    if (!root) {
        root = document.createElement('div');
        root.id = 'sandbox';
        document.querySelector('main').prepend(root);
    }
    window.sent = [];
    const ctx = {
        seat: 0, spectator: false, names: {0: 'Ana', 1: 'Bo', 2: 'Cy'},
        send: (command) => window.sent.push(command), pending: false, replay: false,
        over, shapes: false, state: {}, gameId: 'faces-test', lastMoves: [], animatedUpTo: 0,
    };
    ctx.rerender = () => renderer.render(root, view, legal, ctx);
    ctx.rerender();
}"""
# Each card whose words (or rank) stick out past its own edges.
SPILLING = """() => [...document.querySelectorAll('#sandbox .kc-hand .kc-card')].filter((card) => {
    const box = card.getBoundingClientRect();
    return [...card.querySelectorAll('.kc-suit, .kc-rank')].some((part) => {
        const r = part.getBoundingClientRect();
        return r.left < box.left - 0.5 || r.right > box.right + 0.5 || part.scrollWidth > part.clientWidth + 1;
    });
}).map((card) => card.dataset.card)"""


def hand_view() -> dict:
    rules = get_ruleset("kingdom-cards")
    state = None
    for event in rules.setup({}, 3, random.Random(3)):
        state = rules.evolve(state, event)
    view = rules.view(state, 0)
    view["hand"] = list(EVERY_CARD)
    return view


@pytest.fixture
def open_page(browser, server_url):
    contexts = []

    def make(width: int, height: int):
        context = browser.new_context(
            base_url=server_url, viewport={"width": width, "height": height}
        )
        contexts.append(context)
        page = context.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda exc: errors.append(str(exc)))
        page.goto("/")
        page.evaluate("localStorage.clear()")
        return page, errors

    yield make
    for context in contexts:
        context.close()


@pytest.mark.parametrize("size", [(1366, 768), (390, 844)], ids=["laptop", "phone"])
def test_every_card_face_fits_and_says_what_it_is_for(open_page, artifacts, size):
    page, errors = open_page(*size)
    legal = [{"type": "bid", "card": "R6a"}, {"type": "bid", "card": "Y2a"}]
    page.evaluate(MOUNT, [hand_view(), legal, False])
    cards = page.locator("#sandbox .kc-hand .kc-card")
    expect(cards).to_have_count(len(EVERY_CARD))
    assert page.evaluate(SPILLING) == []
    commander = page.locator("#sandbox .kc-hand .kc-card[data-card='R6a']")
    expect(commander).to_contain_text("commander")
    assert commander.get_attribute("title").startswith("red 6 (commander): bids 6")
    treasure = page.locator("#sandbox .kc-hand .kc-card[data-card='T1']")
    assert "worth 15" in treasure.get_attribute("title")

    # Pick the commander: it looks unlike the other playable card, and says it is picked.
    playable = page.locator("#sandbox .kc-hand .kc-card[data-card='Y2a']")
    shadow = "(el) => getComputedStyle(el).boxShadow"
    commander.click()
    commander = page.locator("#sandbox .kc-hand .kc-card[data-card='R6a']")
    expect(commander).to_have_attribute("aria-pressed", "true")
    assert "picked" in commander.get_attribute("aria-label")
    assert commander.evaluate(shadow) != playable.evaluate(shadow)
    tick = commander.evaluate("(el) => getComputedStyle(el, '::after').content")
    assert "✓" in tick
    page.locator("#sandbox .kc-hand").screenshot(path=artifacts / f"kc-faces-{size[0]}.png")
    assert errors == []


def test_after_the_game_the_hand_is_only_shown_and_revealed_hands_are_cards(open_page):
    page, errors = open_page(1366, 768)
    page.evaluate(MOUNT, [hand_view(), [], True])
    expect(page.locator("#sandbox .kc-hand .kc-card")).to_have_count(len(EVERY_CARD))
    expect(page.locator("#sandbox .kc-move")).to_have_count(0)
    expect(page.locator("#sandbox #kc-tutorial")).to_have_count(0)
    expect(page.locator("#sandbox .kc-prefs")).to_have_count(0)
    assert page.locator("#sandbox .kc-hand-item[draggable='true']").count() == 0
    shown = page.evaluate(
        """async (cards) => {
            const renderer = await import('/static/js/games/kingdom_cards.js');
            const node = renderer.revealedNode('hand', cards);
            document.querySelector('main').append(node);
            return [...node.querySelectorAll('.kc-card-mini')].map((c) => c.dataset.card);
        }""",
        ["R6a", "Y9b", "T2"],
    )
    assert shown == ["R6a", "Y9b", "T2"]
    assert errors == []
