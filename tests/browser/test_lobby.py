"""The lobby's create form in a real browser: table settings reach the server."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.browser.helpers import api_json, create_table

pytestmark = pytest.mark.browser


@pytest.mark.parametrize("level", ["hard", "expert"])
def test_a_table_with_search_bots_sets_their_thinking_time(new_player, level):
    ana = new_player("ana")
    page = ana.page
    table_id = create_table(page, "kingdoms", seats=2, bots=1, level=level, think_seconds=0.5)
    card = page.locator(f".table-card[data-table-id='{table_id}']")
    expect(card).to_contain_text("search bots think 0.5 s")
    expect(card.locator(".seat-line").last).to_contain_text(f"({level})")
    table = api_json(page, f"/api/tables/{table_id}/")
    assert table["bot_think_seconds"] == 0.5
    assert [seat["bot"] for seat in table["seats"]] == [None, level]
    assert ana.errors == []


def test_seats_from_a_table_card_join_leave_and_bots_with_a_level(new_player):
    ana = new_player("ana")
    bo = new_player("bo")
    table_id = create_table(ana.page, "kingdoms", seats=3)
    card = ana.page.locator(f".table-card[data-table-id='{table_id}']")
    expect(card.locator(".seat-line")).to_have_count(1)

    # A bot of the level picked on the card takes a seat; Bo's lobby shows it live.
    card.get_by_label("Bot level").select_option("hard")
    card.get_by_role("button", name="Add bot").click()
    expect(card.locator(".seat-line")).to_have_count(2)
    expect(card.locator(".seat-line").last).to_contain_text("(hard)")
    expect(card).to_contain_text("search bots think")
    seats = api_json(ana.page, f"/api/tables/{table_id}/")["seats"]
    assert [seat["bot"] for seat in seats] == [None, "hard"]
    bo_card = bo.page.locator(f".table-card[data-table-id='{table_id}']")
    expect(bo_card.locator(".seat-line")).to_have_count(2)
    # Only the host may remove a bot.
    expect(bo_card.get_by_role("button", name="Remove", exact=False)).to_have_count(0)

    # Bo joins and leaves from the card; the host's card follows live.
    bo_card.get_by_role("button", name="Join").click()
    expect(bo_card.get_by_role("button", name="Leave")).to_be_visible()
    expect(card.locator(".seat-line", has_text=bo.name)).to_have_count(1)
    bo_card.get_by_role("button", name="Leave").click()
    expect(bo_card.get_by_role("button", name="Join")).to_be_visible()
    expect(card.locator(".seat-line", has_text=bo.name)).to_have_count(0)
    seats = api_json(ana.page, f"/api/tables/{table_id}/")["seats"]
    assert [seat["user"] for seat in seats if not seat["bot"]] == [ana.name]

    # The host removes the bot: the seat is free again, on both lobbies.
    bot_name = seats[1]["name"]
    card.get_by_role("button", name=f"Remove {bot_name}").click()
    expect(card.locator(".seat-line")).to_have_count(1)
    expect(bo_card.locator(".seat-line")).to_have_count(1)
    expect(card).not_to_contain_text("search bots think")
    seats = api_json(ana.page, f"/api/tables/{table_id}/")["seats"]
    assert [(seat["user"], seat["bot"]) for seat in seats] == [(ana.name, None)]
    assert ana.errors == [] and bo.errors == []


def test_the_table_page_adds_bots_of_the_searching_levels(new_player):
    ana = new_player("ana")
    page = ana.page
    table_id = create_table(page, "kingdoms", seats=3)
    page.goto(f"/tables/{table_id}/")
    for taken, level in ((2, "hard"), (3, "expert")):
        page.get_by_role("button", name=f"Add {level} bot").click()
        expect(page.get_by_text(f"{taken} of 3 seats taken")).to_be_visible()
    seats = api_json(page, f"/api/tables/{table_id}/")["seats"]
    assert [(seat["bot"], seat["name"]) for seat in seats] == [
        (None, ana.name),
        ("hard", "Bot 2 (hard)"),
        ("expert", "Bot 3 (expert)"),
    ]
    assert ana.errors == []


def test_more_tables_than_a_page_shows_are_a_click_away(new_player):
    ana = new_player("ana")
    page = ana.page
    made = page.evaluate(
        """async () => {
          const csrf = document.cookie.match(/csrftoken=([^;]+)/)[1];
          const ids = [];
          for (let i = 0; i < 51; i++) {
            const r = await fetch("/api/tables/", {
              method: "POST", credentials: "same-origin",
              headers: {"Content-Type": "application/json", "X-CSRFToken": csrf},
              body: JSON.stringify({ruleset: "kingdoms", seats: 2}),
            });
            ids.push((await r.json()).id);
          }
          return ids;
        }"""
    )
    page.reload()
    page.locator("#filters select[name=status]").select_option("")
    page.get_by_label("Only my tables").check()
    cards = page.locator(".table-card")
    more = page.get_by_role("button", name="More tables")
    expect(cards).to_have_count(50)  # the lobby's first page
    more.click()
    expect(cards).to_have_count(51)
    expect(more).to_be_hidden()
    shown = cards.evaluate_all("els => els.map(e => e.dataset.tableId)")
    assert sorted(shown) == sorted(made)
    assert ana.errors == []
