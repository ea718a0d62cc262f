"""The final scores as a player reads them: no stray "null", no seed or hash (those are on
the audit page, one plain link away)."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.browser.helpers import (
    api_post,
    api_tokens,
    create_table,
    start_from_lobby,
    wait_for_your_turn,
)

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


def test_a_game_ended_by_resigning_reads_in_gold_and_names(new_player):
    ana = new_player("ana", width=1366, height=768)
    page = ana.page
    table_id = create_table(page, "kingdoms", seats=2, bots=1)
    start_from_lobby(page, table_id)
    wait_for_your_turn(page)
    me = page.evaluate("window.kingdomTable.yourSeat")
    finish_by_resigning(page)
    gold = page.evaluate("window.kingdomTable.view.gold")
    result = page.locator("#result")
    mine = result.locator(f"tr[data-seat='{me}']")
    theirs = result.locator(f"tr[data-seat='{1 - me}']")
    # Her own name, not "(bot)"; how each row's place came about, in words.
    expect(mine.locator("th")).to_have_text(ana.name)
    expect(mine.locator(".breakdown")).to_have_text("resigned")
    expect(theirs.locator(".breakdown")).to_contain_text("won: the others left the table")
    # The scores are the game's gold, not a 1 and a 0.
    expect(mine.locator(".score")).to_have_text(str(gold[me]))
    expect(theirs.locator(".score")).to_have_text(str(gold[1 - me]))
    assert "(bot)" not in result.inner_text()
    expect(page.locator(f"#seats li[data-seat='{me}'] .seat-name")).to_have_text(ana.name)
    assert ana.errors == []


@pytest.mark.parametrize("size", {"laptop": (1366, 768), "phone": (390, 844)}.items(), ids=str)
def test_at_the_end_the_scores_are_in_view_with_rematch_and_the_lobby(new_player, artifacts, size):
    name, (width, height) = size
    ana = new_player("ana", width=width, height=height)
    page = ana.page
    table_id = create_table(page, "kingdoms", seats=2, bots=1, level="medium")
    start_from_lobby(page, table_id)
    # Scrolled down to the log, as a player reading it would be, when the game ends.
    page.evaluate("window.scrollTo(0, document.body.scrollHeight)")
    finish_by_resigning(page)
    result = page.locator("#result")
    expect(result.get_by_role("heading", name="Final scores")).to_be_visible()
    top = result.bounding_box()["y"]
    assert 0 <= top < height * 0.6, f"the final scores start at {top}px"
    expect(result.get_by_role("link", name="Back to the lobby")).to_have_attribute("href", "/")
    page.screenshot(path=artifacts / f"final-scores-{name}.png")

    # Rematch against a bot: the same game and seats, the bot at its level, started at
    # once (nobody else to wait for).
    result.get_by_role("button", name="Rematch").click()
    page.wait_for_url(lambda url: table_id not in url and "/tables/" in url)
    expect(page.locator(".kingdoms-board")).to_be_visible()
    rematch = page.evaluate("window.kingdomTable.table.summary")
    assert rematch["ruleset"] == "kingdoms" and rematch["status"] == "active"
    assert sorted((s["user"] or "", s["bot"] or "") for s in rematch["seats"]) == [
        ("", "medium"),
        (ana.name, ""),
    ]
    assert ana.errors == []


def test_the_fairness_link_opens_the_audit_page_which_fits_a_phone(new_player, artifacts):
    ana = new_player("ana", width=390, height=844)
    page = ana.page
    table_id = create_table(page, "kingdom-builder", seats=2, bots=1)
    start_from_lobby(page, table_id)
    finish_by_resigning(page)
    seed = page.evaluate("window.kingdomTable.table.summary.seed")
    page.get_by_role("link", name="Check that the shuffles were fair").click()
    page.wait_for_url(f"**/tables/{table_id}/audit/")
    # One plain sentence first; the seed and hashes are folded away until asked for.
    expect(page.get_by_test_id("audit-summary")).to_contain_text("This game's shuffles check out.")
    expect(page.locator("[data-testid='seed']")).to_be_hidden()
    page.get_by_text("Integrity: hashes, seed and signatures").click()
    # The seed lives here, and the page does not scroll sideways.
    expect(page.locator("[data-testid='seed']")).to_have_text(seed)
    expect(page.locator("[data-testid='seed']")).to_be_visible()
    expect(page.locator("#audit-board .kb-board")).to_be_visible()
    wide = page.evaluate("document.documentElement.scrollWidth")
    assert wide <= 391, f"the audit page is {wide}px wide on a 390px phone"
    page.screenshot(path=artifacts / "audit-phone.png")
    assert ana.errors == []


def test_the_other_player_is_shown_the_way_to_a_rematch_as_it_opens(
    new_player, server_url, artifacts
):
    ana, bo = new_player("ana", width=390, height=844), new_player("bo")
    tokens = api_tokens(server_url, ana, bo)
    body = {"ruleset": "kingdoms", "seats": 2}
    table_id = api_post(server_url, "/api/tables/", body, tokens[ana.name])["id"]
    api_post(server_url, f"/api/tables/{table_id}/join/", {}, tokens[bo.name])
    # On the table's page before it starts: a lobby open on a joined table that starts
    # goes to it by itself, which would race a goto.
    for player in (ana, bo):
        player.page.goto(f"/tables/{table_id}/")
        expect(player.page.locator("#prelude")).to_contain_text("2 of 2 seats")
    api_post(server_url, f"/api/tables/{table_id}/start/", {}, tokens[ana.name])
    for player in (ana, bo):
        expect(player.page.locator("#conn")).to_have_attribute("data-state", "live")
    # Bo leaves: the last player at the table wins, and the game is over.
    api_post(server_url, f"/api/tables/{table_id}/resign/", {}, tokens[bo.name])
    for player in (ana, bo):
        expect(player.page.locator("#result")).to_contain_text("Final scores", timeout=30000)
        expect(player.page.locator("#rematch")).to_have_text("Rematch")

    # Bo opens the rematch; Ana, still on the finished game, is told at once.
    bo.page.locator("#rematch").click()
    bo.page.wait_for_url(lambda url: table_id not in url and "/tables/" in url)
    rematch_id = bo.page.evaluate("window.kingdomTable.table.id")
    offer = ana.page.locator("#result")
    expect(offer.get_by_role("status")).to_have_text(f"{bo.name} opened a rematch.")
    offer.scroll_into_view_if_needed()
    ana.page.screenshot(path=artifacts / "rematch-offer-phone.png")
    offer.get_by_role("button", name=f"Join {bo.name}'s rematch").click()
    ana.page.wait_for_url(f"**/tables/{rematch_id}/")
    expect(ana.page.locator("#prelude")).to_contain_text("2 of 2 seats")
    # A page opened on the finished game later shows the same way there.
    ana.page.goto(f"/tables/{table_id}/")
    expect(ana.page.locator("#rematch")).to_have_text(f"Join {bo.name}'s rematch")
    assert ana.errors == [] and bo.errors == []


@pytest.mark.parametrize("size", {"laptop": (1366, 768), "phone": (390, 844)}.items(), ids=str)
def test_replaying_folds_the_final_scores_to_one_line_with_the_board_in_view(
    new_player, artifacts, size
):
    name, (width, height) = size
    ana = new_player("ana", width=width, height=height)
    page = ana.page
    table_id = create_table(page, "kingdoms", seats=2, bots=1)
    start_from_lobby(page, table_id)
    finish_by_resigning(page)
    result = page.locator("#result")
    expect(result.locator(".result-table")).to_be_visible()
    page.locator(".replay").get_by_role("button", name="Previous move").click()
    folded = result.locator(".result-folded")
    expect(folded).to_contain_text("Final scores: 1.")
    expect(result.locator(".result-table")).to_have_count(0)
    # One line (two at most on a phone). Read in the page, retried: a late message (the
    # ratings, the bot's last news) may draw the result again in between.
    page.wait_for_function(
        """() => { const e = document.querySelector('#result .result-folded');
          const h = e && e.getBoundingClientRect().height; return h > 0 && h < 60; }"""
    )
    # The board and the sticky replay bar are both in view, the bar not covering the board.
    expect(page.locator(".board-area.is-replay .kingdoms-board")).to_be_visible()
    board = page.locator(".board-area.is-replay .kingdoms-board").bounding_box()
    bar = page.locator(".board-column .replay").bounding_box()
    assert 0 <= board["y"] < height * 0.5, f"the board starts at {board['y']}px"
    assert bar["y"] + bar["height"] <= height + 1, bar
    if board["y"] + board["height"] <= height:  # all of it fits: the bar is below it
        assert bar["y"] >= board["y"] + board["height"] - 1, (board, bar)
    page.screenshot(path=artifacts / f"replay-folded-{name}.png")
    page.get_by_test_id("result-show").click()
    expect(result.locator(".result-table")).to_be_visible()
    assert ana.errors == []
