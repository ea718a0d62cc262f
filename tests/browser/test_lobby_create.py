"""The lobby's create form speaks player: a real control for every option, each shown only
when it applies, the game's usual table, bots that fill the empty seats, and on a phone
the tables before the form."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.browser.helpers import api_json, start_from_lobby

pytestmark = pytest.mark.browser
CARD_IDS = "els => els.map(e => e.dataset.tableId)"


def submit(page) -> str:
    """Create the table as the form stands; returns its id (the card that appeared)."""
    before = page.locator(".table-card").evaluate_all(CARD_IDS)
    page.click("#create-submit")
    expect(page.locator(".toast", has_text="Table created")).to_be_visible()
    return next(i for i in page.locator(".table-card").evaluate_all(CARD_IDS) if i not in before)


def test_no_option_is_a_json_text_box_and_sizes_show_only_for_their_draw(new_player, artifacts):
    ana = new_player("ana", width=1366, height=900)
    page = ana.page
    for ruleset in ("kingdoms", "kingdom-cards", "kingdom-builder"):
        page.select_option("#create-ruleset", ruleset)
        expect(page.locator("#create-options [data-option]").first).to_be_visible()
        assert page.locator("#create-options input[type=text]").count() == 0
        expect(page.locator("#create-options")).not_to_contain_text("JSON")
        # The game's usual table: four seats, filled with bots.
        expect(page.locator("#create-seats")).to_have_value("4")
    expect(page.locator("#create-fill-bots")).to_be_checked()

    draw = page.locator("#opt-terrain_draw")
    expect(page.locator("#opt-draft_size")).to_be_hidden()
    expect(page.locator("#opt-hand_size")).to_be_hidden()
    expect(page.locator("#opt-sections")).to_be_hidden()
    expect(page.locator("#opt-crossroads_pieces_score")).to_be_hidden()
    draw.select_option(label="Draft: pick from cards lying face up")
    expect(page.locator("#opt-draft_size")).to_be_visible()
    expect(page.locator("#opt-hand_size")).to_be_hidden()
    draw.select_option(label="Hand: hold several cards")
    expect(page.locator("#opt-draft_size")).to_be_hidden()
    expect(page.locator("#opt-hand_size")).to_be_visible()
    page.locator("#opt-crossroads").check()
    expect(page.locator("#opt-crossroads_pieces_score")).to_be_visible()
    page.select_option("#opt-board", label="Choose the sections")
    expect(page.locator("#opt-sections")).to_be_visible()
    expect(page.locator(".kb-pick svg polygon").first).to_be_visible()
    # Crossroads on: its sections join the thumbnails; off again: they leave.
    expect(page.locator(".kb-pick[data-section='city_hall_and_outpost']")).to_be_visible()
    page.locator("#opt-crossroads").uncheck()
    expect(page.locator(".kb-pick[data-section='city_hall_and_outpost']")).to_have_count(0)
    page.screenshot(path=artifacts / "lobby-create-desktop.png", full_page=True)
    assert ana.errors == []


def test_a_kingdom_builder_table_starts_with_the_chosen_sections_turns_and_cards(
    new_player, artifacts
):
    ana = new_player("ana", width=1366, height=900)
    page = ana.page
    page.select_option("#create-ruleset", "kingdom-builder")
    page.fill("#create-seats", "2")
    page.select_option("#create-bot-level", "easy")
    page.select_option("#opt-board", label="Choose the sections")
    chosen = ["tavern", "harbor", "oracle", "barn"]
    page.click("#kb-slot-0")
    for name in chosen:  # each pick moves on to the next slot
        page.click(f".kb-pick[data-section='{name}']")
    for i, name in enumerate(chosen):
        expect(page.locator(f"#kb-slot-{i}")).to_have_attribute("data-section", name)
    page.locator("#kb-rotate-1").check()
    page.locator("#kb-rotate-3").check()

    page.locator("#opt-cards-choose").check()
    cards = ["fishermen", "lords", "hermits"]
    for card in cards:
        page.locator(f"#opt-cards-{card}").check()
    expect(page.locator("#opt-cards-status")).to_have_text("3 of 3 ticked")
    expect(page.locator("#opt-cards-miners")).to_be_disabled()  # exactly 3
    page.locator("#create-options").screenshot(path=artifacts / "lobby-create-kb-chosen.png")

    table_id = submit(page)
    table = api_json(page, f"/api/tables/{table_id}/")
    assert table["options"]["sections"] == chosen
    assert table["options"]["rotations"] == [False, True, False, True]
    assert sorted(table["options"]["cards"]) == sorted(cards)
    assert [seat["bot"] for seat in table["seats"]] == [None, "easy"]
    start_from_lobby(page, table_id)
    view = api_json(page, f"/api/tables/{table_id}/view/")["state"]
    assert view["board"]["sections"] == [
        {"name": n, "rotated": r} for n, r in zip(chosen, [False, True, False, True], strict=True)
    ]
    assert sorted(view["cards"]) == sorted(cards)
    assert ana.errors == []


def test_fill_with_bots_seats_bots_of_the_chosen_level_in_every_empty_seat(new_player):
    ana = new_player("ana")
    page = ana.page
    page.select_option("#create-ruleset", "kingdoms")
    expect(page.locator("#create-think-field")).to_be_hidden()
    page.select_option("#create-bot-level", "expert")
    expect(page.locator("#create-think-field")).to_be_visible()
    page.select_option("#create-bot-level", "easy")
    expect(page.locator("#create-think-field")).to_be_hidden()
    page.select_option("#create-bot-level", "hard")
    expect(page.locator("#create-think-field")).to_be_visible()
    table_id = submit(page)
    table = api_json(page, f"/api/tables/{table_id}/")
    assert [seat["bot"] for seat in table["seats"]] == [None, "hard", "hard", "hard"]
    assert table["seats"][0]["user"] == ana.name
    assert ana.errors == []


def test_on_a_phone_the_tables_come_before_the_form(new_player, artifacts):
    ana = new_player("ana", width=390, height=844)
    page = ana.page
    page.select_option("#create-ruleset", "kingdom-builder")
    page.select_option("#opt-board", label="Choose the sections")
    expect(page.locator(".kb-pick").first).to_be_visible()
    tables = page.locator(".tables-panel").bounding_box()
    form = page.locator(".create-panel").bounding_box()
    assert tables["y"] + tables["height"] <= form["y"]
    expect(page.locator(".jump-create")).to_be_visible()
    wide = page.evaluate("() => document.documentElement.scrollWidth")
    assert wide <= 391, "the lobby scrolls sideways on a phone"
    page.screenshot(path=artifacts / "lobby-create-phone.png", full_page=True)
    assert ana.errors == []


def test_an_option_that_no_longer_applies_is_left_to_its_default(new_player):
    ana = new_player("ana")
    page = ana.page
    page.select_option("#create-ruleset", "kingdom-builder")
    page.locator("#create-fill-bots").uncheck()
    page.locator("#opt-crossroads").check()
    page.locator("#opt-crossroads_pieces_score").check()
    page.locator("#opt-crossroads").uncheck()  # the ruling needs Crossroads: now hidden
    page.locator("#opt-terrain_draw").select_option(label="Draft: pick from cards lying face up")
    page.fill("#opt-draft_size", "5")
    page.locator("#opt-terrain_draw").select_option(label="Standard: draw one card each turn")
    table_id = submit(page)
    options = api_json(page, f"/api/tables/{table_id}/")["options"]
    assert options["crossroads"] is False and options["crossroads_pieces_score"] is False
    assert options["terrain_draw"] == "standard" and options["draft_size"] == 3
    assert options["cards"] is None and options["board"] == "random"
    table = api_json(page, f"/api/tables/{table_id}/")
    assert [seat["bot"] for seat in table["seats"]] == [None]
    assert ana.errors == []


def test_the_board_sections_are_picked_by_keyboard(new_player):
    ana = new_player("ana")
    page = ana.page
    page.select_option("#create-ruleset", "kingdom-builder")
    page.select_option("#opt-board", label="Choose the sections")
    page.focus("#kb-slot-2")
    page.keyboard.press("Enter")
    expect(page.locator("#kb-slot-2")).to_be_focused()
    expect(page.locator("#kb-slot-2")).to_have_attribute("aria-pressed", "true")
    page.focus(".kb-pick[data-section='paddock']")
    page.keyboard.press("Enter")
    expect(page.locator("#kb-slot-2")).to_have_attribute("data-section", "paddock")
    expect(page.locator(".kb-pick[data-section='paddock']")).to_be_focused()
    page.focus("#kb-rotate-2")
    page.keyboard.press("Space")
    expect(page.locator("#kb-rotate-2")).to_be_checked()
    expect(page.locator("#kb-rotate-2")).to_be_focused()
    assert ana.errors == []
