"""Kingdom Cards after a resignation, in a real browser: the banner, the result table
and the log's result line name the same winner, rank the player who left last and say
why; no line credits the resigned seat with the win. The player left at the table sees
no turn bar and no turn counter once the game is over."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.browser.helpers import api_json, create_table, seat_two_players, start_from_lobby

pytestmark = pytest.mark.browser

SIZES = {"desktop": (1366, 900), "phone": (390, 844)}
RULE = "a player who leaves ranks last, whatever their seat (played on by a bot) scored."


@pytest.mark.parametrize("size", SIZES)
def test_one_consistent_result_after_a_resignation(new_player, artifacts, size):
    width, height = SIZES[size]
    ana = new_player("ana", width=width, height=height)
    page = ana.page
    table_id = create_table(
        page, "kingdom-cards", seats=2, bots=1, options={"allow_two_players": True}
    )
    start_from_lobby(page, table_id)
    expect(page.locator(".kc-kingdoms .kc-kingdom")).to_have_count(2)
    me = page.evaluate("window.kingdomTable.yourSeat")
    # Two seats: the resignation leaves the bot alone and ends the game at once.
    page.click("#resign")
    page.click("#resign-confirm")
    banner = page.locator("#turn-banner")
    expect(banner).to_contain_text("Game over", timeout=30000)

    seats = api_json(page, f"/api/tables/{table_id}/")["seats"]
    names = {s["seat"]: s["name"] for s in seats}
    outcome = api_json(page, f"/api/tables/{table_id}/view/")["state"]["outcome"]
    assert outcome["ranking"][-1] == [me], "the player who left ranks last"
    assert outcome["winners"] != [me]
    winner = names[outcome["winners"][0]]
    mine = names[me]
    assert mine == f"{ana.name} (bot)"

    # The banner, the result table and the log's result line: the same winner.
    expect(banner).to_have_text(f"Game over. Won by {winner}.")
    rows = page.locator("#result tbody tr")
    expect(rows).to_have_count(2)
    expect(rows.first.locator("th")).to_contain_text(winner)
    # The result names the player who left by their own name, and says how each place
    # came about.
    expect(rows.last.locator("th")).to_have_text(ana.name)
    expect(rows.last.locator("td.num").first).to_have_text("2")
    expect(rows.last.locator(".breakdown")).to_have_text("resigned")
    expect(rows.first.locator(".breakdown")).to_contain_text("won: the others left the table")
    note = page.locator("#result [data-note='departures']")
    expect(note).to_contain_text(f"{ana.name} resigned: a player who leaves the table ranks last")
    result_line = page.locator("#log li[data-type='result_declared']")
    expect(result_line).to_have_count(1)
    # The bot is the last seat left: the game ended at once, and the line says why.
    expect(result_line.locator(".log-text")).to_have_text(
        "Game over: the others have left the table (resignation), so "
        f"{winner} wins. {ana.name} resigned: {RULE}"
    )
    # The result line's dot is the winner's; nothing in the log says the leaver won.
    assert result_line.get_attribute("data-about") == str(outcome["winners"][0])
    log_text = page.locator("#log").inner_text()
    # The person who resigned is called by their name, never "(bot)", in every line.
    assert mine not in log_text and ana.name in log_text
    assert f"{mine} completed a kingdom and won" not in log_text
    assert f"Won by {mine}" not in log_text
    # The end screen: no centre card, turn bar, turn counter or empty battle; the revealed
    # hands fit.
    expect(page.locator(".kc-battle")).to_have_count(0)
    # No turn is left: no turn bar, and no "kingdom changes left this turn" anywhere.
    expect(page.locator("#kc-turn-bar")).to_have_count(0)
    expect(page.locator("#turn-bar")).to_be_hidden()
    expect(page.locator("main")).not_to_contain_text("changes left this turn")
    expect(page.locator(".kc-kingdoms")).not_to_contain_text("in hand")
    expect(page.locator("#seats")).not_to_contain_text("in hand")
    for card in page.locator("#result [data-part='revealed'] .kc-card").all():
        box = card.bounding_box()
        assert box["x"] >= 0 and box["x"] + box["width"] <= width, box
    assert page.evaluate("document.documentElement.scrollWidth") <= width + 1
    page.locator("#result").scroll_into_view_if_needed()
    page.screenshot(path=artifacts / f"kc-resignation-result-{size}.png", full_page=True)
    page.locator("#log").scroll_into_view_if_needed()
    page.screenshot(path=artifacts / f"kc-resignation-log-{size}.png")
    assert ana.errors == []


@pytest.mark.parametrize("size", SIZES)
def test_the_player_left_seated_sees_no_turn_counter_after_the_end(new_player, artifacts, size):
    width, height = SIZES[size]
    ana = new_player("ana", width=width, height=height)
    bo = new_player("bo", width=1366, height=900)
    seat_two_players(ana, bo, "kingdom-cards", options={"allow_two_players": True})
    # While the game is on, ana's turn bar counts her kingdom changes.
    expect(ana.page.locator(".kc-kingdoms .kc-kingdom")).to_have_count(2)
    counter = ana.page.get_by_text("kingdom changes left this turn")
    expect(counter).to_be_visible()
    bo.page.click("#resign")
    bo.page.click("#resign-confirm")
    expect(ana.page.locator("#turn-banner")).to_have_text(f"Game over. Won by {ana.name}.")
    expect(ana.page.locator("#result")).to_be_visible()
    # Ana is still seated, and no turn is left: no turn bar, no counter.
    assert ana.page.evaluate("window.kingdomTable.yourSeat") is not None
    expect(ana.page.locator("#kc-turn-bar")).to_have_count(0)
    expect(ana.page.locator("#turn-bar")).to_be_hidden()
    expect(counter).to_have_count(0)
    ana.page.screenshot(path=artifacts / f"kc-end-seated-{size}.png")
    assert ana.errors == [] and bo.errors == []
