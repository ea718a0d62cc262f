"""Each game's renderer driven in the browser with views from the real engines and chosen
legal commands: the clicks send exactly the legal command they stand for."""

from __future__ import annotations

import random

import pytest
from playwright.sync_api import expect

from games.rules import get_ruleset

pytestmark = pytest.mark.browser

MOUNT = """async ([module, view, legal, seat]) => {
    const renderer = await import(module);
    let root = document.getElementById('sandbox');
    if (!root) {
        root = document.createElement('div');
        root.id = 'sandbox';
        document.querySelector('main').prepend(root);
    }
    window.sent = [];
    const ctx = {
        seat, spectator: seat === null, names: {0: 'Ana', 1: 'Bo', 2: 'Cy'},
        send: (command) => window.sent.push(command), pending: false, replay: false,
        over: false, shapes: false, state: {}, gameId: 'renderer-test',
    };
    ctx.rerender = () => renderer.render(root, view, legal, ctx);
    ctx.rerender();
}"""


def engine_view(key: str, options: dict, players: int, seat: int, seed: int = 3) -> dict:
    rules = get_ruleset(key)
    state = None
    for event in rules.setup(options, players, random.Random(seed)):
        state = rules.evolve(state, event)
    return rules.view(state, seat)


@pytest.fixture
def page(browser, server_url):
    context = browser.new_context(base_url=server_url, viewport={"width": 1280, "height": 900})
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.goto("/")
    yield page
    context.close()
    assert errors == []


def mount(page, module: str, view: dict, legal: list, seat: int | None) -> None:
    page.evaluate(MOUNT, [f"/static/js/games/{module}.js", view, legal, seat])


def sent(page) -> list:
    return page.evaluate("window.sent")


def test_kingdoms_no_luck_pick_a_face_up_tile_then_a_space(page):
    view = engine_view("kingdoms", {"no_luck": True}, 2, 0)
    legal = [
        {"type": "place_tile", "tile": "+3b", "space": [2, 2]},
        {"type": "place_tile", "tile": "+3b", "space": [4, 5]},
        {"type": "place_castle", "rank": 1, "space": [0, 0]},
    ]
    mount(page, "kingdoms", view, legal, 0)
    board = page.locator("#sandbox .kingdoms-board")
    expect(board.locator(".target")).to_have_count(0)
    page.click("#sandbox button[data-tile='+3b']")
    expect(board.locator(".target")).to_have_count(2)
    board.locator(".cell[data-row='4'][data-col='5']").click()
    assert sent(page) == [{"type": "place_tile", "tile": "+3b", "space": [4, 5]}]


def test_kingdom_builder_move_tile_pick_tile_then_settlement_then_hex(page):
    view = engine_view("kingdom-builder", {}, 2, 0)
    view["to_act"] = [0]
    me = view["players"][0]
    me["settlements"] = [[5, 5], [5, 6]]
    me["tiles"] = [{"tile": "paddock", "location": [6, 6], "fresh": False, "used": False}]
    legal = [
        {"type": "build", "hex": [0, 0]},
        {"type": "use_tile", "tile": "paddock", "from": [5, 5], "to": [5, 3]},
        {"type": "use_tile", "tile": "paddock", "from": [5, 5], "to": [3, 4]},
        {"type": "use_tile", "tile": "paddock", "from": [5, 6], "to": [5, 8]},
    ]
    mount(page, "kingdom_builder", view, legal, 0)
    board = page.locator("#sandbox .kb-board")
    expect(board.locator(".hex")).to_have_count(400)
    expect(board.locator(".hex.target")).to_have_count(1)  # the build
    expect(board.locator(".hex[data-row='5'][data-col='5'] .settlement")).to_have_count(1)
    page.click("#sandbox button[data-tile='paddock']")
    expect(board.locator(".hex.target")).to_have_count(2)  # the settlements it may move
    board.locator(".hex[data-row='5'][data-col='5']").click()
    expect(board.locator(".hex.target")).to_have_count(2)  # where that one may go
    expect(board.locator(".hex.picked")).to_have_count(1)
    board.locator(".hex[data-row='3'][data-col='4']").click()
    assert sent(page) == [{"type": "use_tile", "tile": "paddock", "from": [5, 5], "to": [3, 4]}]


def test_kingdom_builder_odd_rows_sit_half_a_hex_to_the_right(page):
    view = engine_view("kingdom-builder", {}, 2, 0)
    mount(page, "kingdom_builder", view, [], 0)
    x = page.evaluate(
        """() => [0, 1].map(r => document.querySelector(
            `#sandbox .hex[data-row='${r}'][data-col='0'] polygon`).getBBox().x)"""
    )
    assert x[1] > x[0]


def test_kingdom_cards_select_three_cards_and_lay_them_as_a_group(page):
    view = engine_view("kingdom-cards", {}, 3, 0, seed=1)
    rules_legal = [
        {"type": "challenge", "seat": 1},
        {"type": "challenge", "seat": 2},
        {"type": "lay_group", "cards": ["R4b", "B5b", "B6a"]},
        {"type": "keep_kingdom"},
    ]
    assert set(["R4b", "B5b", "B6a"]) <= set(view["hand"])
    mount(page, "kingdom_cards", view, rules_legal, 0)
    hand = page.locator("#sandbox .kc-hand")
    expect(hand.locator("button.kc-card.target")).to_have_count(3)
    for card in ("B6a", "R4b", "B5b"):
        hand.locator(f"button.kc-card[data-card='{card}']").click()
    page.click("#kc-lay-selected")
    assert sent(page) == [{"type": "lay_group", "cards": ["R4b", "B5b", "B6a"]}]
    page.get_by_role("button", name="Challenge Bo").click()
    assert sent(page)[-1] == {"type": "challenge", "seat": 1}


def test_kingdom_cards_a_single_card_is_laid_and_taken_back_alone(page):
    view = engine_view("kingdom-cards", {}, 3, 0, seed=1)
    view["kingdoms"][0]["groups"][0] = ["R1a", "Y2a"]  # an incomplete people
    legal = [{"type": "lay_card", "card": "R4b"}, {"type": "return_card", "card": "Y2a"}]
    mount(page, "kingdom_cards", view, legal, 0)
    page.locator("#sandbox .kc-hand button.kc-card[data-card='R4b']").click()
    page.get_by_role("button", name="Lay this card alone in your kingdom").click()
    assert sent(page) == [{"type": "lay_card", "card": "R4b"}]
    expect(page.locator("#sandbox")).to_contain_text("incomplete: no bonus, no flag")
    page.locator("#sandbox [data-focus-key='return-card-Y2a']").click()
    assert sent(page)[-1] == {"type": "return_card", "card": "Y2a"}


def test_kingdom_cards_hand_order_by_drag_and_drop_is_kept(page):
    view = engine_view("kingdom-cards", {}, 3, 0, seed=1)
    mount(page, "kingdom_cards", view, [], 0)
    items = page.locator("#sandbox .kc-hand .kc-hand-item")
    before = items.evaluate_all("els => els.map(e => e.dataset.card)")
    items.nth(0).drag_to(items.nth(3))
    after = items.evaluate_all("els => els.map(e => e.dataset.card)")
    assert after != before and sorted(after) == sorted(before)
    assert after.index(before[0]) == 3
    saved = page.evaluate("JSON.parse(localStorage.getItem('kingdom.kc.hand.renderer-test'))")
    assert saved == after
    mount(page, "kingdom_cards", view, [], 0)  # a fresh render keeps the order
    assert items.evaluate_all("els => els.map(e => e.dataset.card)") == after
