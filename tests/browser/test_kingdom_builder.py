"""Kingdom Builder in a real browser: build on highlighted hexes, bots live, resign,
the result card by card; each player's secret terrain card reaches only them."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.browser.helpers import (
    api_json,
    create_table,
    events_in,
    log_seqs,
    record_frames,
    seat_two_players,
    start_from_lobby,
    views_in,
    wait_for_your_turn,
    whose_turn,
)

pytestmark = pytest.mark.browser


def bot_seats(page, table_id: str) -> set[int]:
    return {s["seat"] for s in api_json(page, f"/api/tables/{table_id}/")["seats"] if s["bot"]}


def test_kingdom_builder_with_two_bots_from_a_whole_turn_to_the_result(new_player, artifacts):
    ana = new_player("ana")
    page = ana.page
    table_id = create_table(page, "kingdom-builder", seats=3, bots=2)
    start_from_lobby(page, table_id)
    board = page.locator(".kb-board")
    expect(board).to_be_visible()
    expect(board.locator(".hex")).to_have_count(400)
    bots = bot_seats(page, table_id)
    me = page.evaluate("window.kingdomTable.yourSeat")
    assert len(bots) == 2 and me not in bots
    wait_for_your_turn(page)
    page.screenshot(path=artifacts / "table-kingdom-builder.png", full_page=True)

    # The whole turn: the mandatory three settlements, each on a highlighted hex of the
    # terrain card's kind; then End turn (the turn waits for it: undo is on).
    for built in range(1, 4):
        targets = board.locator(".hex.target")
        expect(targets.first).to_be_visible()
        terrain = page.evaluate("window.kingdomTable.view.turn.terrain")
        kinds = set(targets.evaluate_all("els => els.map(e => e.dataset.terrain)"))
        assert kinds == {terrain}, f"highlighted {kinds}, the card is {terrain}"
        target = targets.first
        row, col = target.get_attribute("data-row"), target.get_attribute("data-col")
        target.click()
        expect(
            page.locator("#log li", has_text=f"{ana.name} builds on").filter(
                has_text=f" at {chr(65 + int(col))}{int(row) + 1}"
            )
        ).to_have_count(1)
        expect(
            page.locator(f".kb-board .hex[data-row='{row}'][data-col='{col}']")
        ).to_have_attribute("data-seat", str(me))
        expect(page.locator("#log li", has_text=f"{ana.name} builds on")).to_have_count(built)
    my_last = int(
        page.locator("#log li", has_text=f"{ana.name} builds on").last.get_attribute("data-seq")
    )
    # End turn ends it (our own end-of-turn events follow the third settlement).
    page.locator("#end-turn").click()
    ended = page.locator(f"#log li[data-type='turn_ended'][data-actor='seat:{me}']")
    expect(ended).to_have_count(1)
    assert int(ended.get_attribute("data-seq")) > my_last
    expect(page.locator("#end-turn")).to_have_count(0)

    # Both bots' turns arrive live: each builds after our turn, with no reload.
    page.wait_for_function(
        """([after, bots]) => bots.every((seat) => [...document.querySelectorAll('#log li')].some(
            (li) => Number(li.dataset.seq) > after && li.dataset.actor === `bot:${seat}`
              && li.textContent.includes('builds on')))""",
        arg=[my_last, sorted(bots)],
    )
    wait_for_your_turn(page)
    page.screenshot(path=artifacts / "table-kingdom-builder-bots.png", full_page=True)

    # Resign: a bot plays on for us, the game runs to its end, the result shows each
    # player's gold card by card (castles and every Kingdom Builder card in play).
    page.click("#resign")
    page.click("#resign-confirm")
    result = page.locator("#result")
    expect(result).to_be_visible(timeout=90000)
    rows = result.locator("tbody tr")
    expect(rows).to_have_count(3)
    expect(rows.last).to_contain_text(ana.name)
    view = api_json(page, f"/api/tables/{table_id}/view/")["state"]
    cards = [card.replace("_", " ") for card in view["cards"]]
    assert len(cards) == 3
    outcome = view["outcome"]
    for index in range(3):
        row = rows.nth(index)
        seat = row.get_attribute("data-seat")
        terms = row.locator(".breakdown-list dt")
        expect(terms).to_have_text(["castles", *cards])
        gold = row.locator(".breakdown-list dd").all_inner_texts()
        assert [int(g) for g in gold] == list(outcome["breakdown"][seat].values())
        assert sum(int(g) for g in gold) == outcome["scores"][seat]
        expect(row.locator(".score")).to_have_text(str(outcome["scores"][seat]))
    head = page.evaluate("window.kingdomTable.lastSeq")
    assert head == api_json(page, f"/api/tables/{table_id}/")["head_seq"]
    assert log_seqs(page) == list(range(1, head + 1)), "every event shown once, in order"
    page.screenshot(path=artifacts / "table-kingdom-builder-result.png", full_page=True)
    assert ana.errors == []


def test_kingdom_builder_secret_terrain_card_reaches_only_its_holder(
    new_player, browser, server_url
):
    """Terrain names repeat (two players may hold the same kind), so a card's value alone
    cannot show whose it is: this checks where each secret is carried instead. The
    opening hand (in the set-up event) and every card drawn to a hand carry the terrain
    only in its holder's frames; views never list another player's hand; the draw pile
    reaches nobody."""
    ana = new_player("ana")
    bo = new_player("bo")
    table_id, frames = seat_two_players(ana, bo, "kingdom-builder")
    watcher_context = browser.new_context(base_url=server_url)
    watcher = watcher_context.new_page()
    frames["watcher"] = record_frames(watcher)
    watcher.goto(f"/tables/{table_id}/")
    pages = {ana.name: ana.page, bo.name: bo.page, "watcher": watcher}
    for page in pages.values():
        expect(page.locator(".kb-board .hex")).to_have_count(400)
        expect(page.locator("#conn")).to_have_attribute("data-state", "live")

    # Whoever starts plays a whole turn; then they hold a new secret card.
    first = whose_turn(ana, bo)
    second = bo if first is ana else ana
    for built in range(1, 4):
        first.page.locator(".kb-board .hex.target").first.click()
        expect(first.page.locator("#log li", has_text=f"{first.name} builds on")).to_have_count(
            built
        )
    first.page.locator("#end-turn").click()
    wait_for_your_turn(second.page)
    seats = {p.name: p.page.evaluate("window.kingdomTable.yourSeat") for p in (ana, bo)}
    drawn = first.page.locator("#log li[data-type='terrain_card_drawn']").last
    expect(drawn).to_be_attached()
    draw_seq = int(drawn.get_attribute("data-seq"))
    for page in pages.values():
        expect(page.locator(f"#log li[data-seq='{draw_seq}']")).to_have_count(1)
    secret = first.page.evaluate("window.kingdomTable.view.hand")
    assert len(secret) == 1

    # The page: the holder sees "Your hand" with the card; the others see a hidden card.
    expect(first.page.locator(".kb-panel")).to_contain_text("Your hand:")
    expect(first.page.locator(".kb-panel .terrain-card").last).to_have_text(
        first.page.evaluate("(t) => t.replaceAll('_', ' ')", secret[0]), ignore_case=True
    )
    for page in (second.page, watcher):
        expect(page.locator(".kb-panel")).not_to_contain_text("Your hand:")
        expect(page.locator(f".seat[data-seat='{seats[first.name]}']")).to_contain_text(
            "1 hidden card"
        )
    assert second.page.evaluate("window.kingdomTable.view.hand") == []
    assert watcher.evaluate("window.kingdomTable.view.hand") is None

    # The frames.
    for who, received in frames.items():
        seat = seats.get(who)
        events = events_in(received)
        views = views_in(received)
        assert events and views, f"{who} received no game news"
        for event in events:
            assert "draw_pile" not in event["data"], f"the draw pile reached {who}"
            if event["type"] == "game_set_up":
                assert ("hand" in event["data"]) == (seat is not None)
            if event["type"] == "terrain_card_drawn" and event["data"]["to"] == "hand":
                mine = event["data"]["seat"] == seat
                assert ("terrain" in event["data"]) == mine, (who, event)
        for view in views:
            assert all("hand" not in p for p in view["players"]), f"a hand in {who}'s view"
            if seat is None:
                assert view["hand"] is None
        the_draw = [e for e in events if e["seq"] == draw_seq]
        assert len(the_draw) == 1, f"{who} received the draw once"
        assert the_draw[0]["data"]["seat"] == seats[first.name]
        if who == first.name:
            assert the_draw[0]["data"]["terrain"] == secret[0]
            assert views[-1]["hand"] == secret
        else:
            assert "terrain" not in the_draw[0]["data"]
    # The guest's page was open before the start: its set-up event carries its own hand.
    set_up = [e for e in events_in(frames[bo.name]) if e["type"] == "game_set_up"]
    assert len(set_up) == 1 and len(set_up[0]["data"]["hand"]) == 1
    watcher_context.close()
    assert ana.errors == [] and bo.errors == []


def test_kingdom_builder_with_nomads_and_crossroads_from_the_lobby(new_player, artifacts):
    ana = new_player("ana")
    page = ana.page
    options = {"nomads": True, "crossroads": True}
    table_id = create_table(page, "kingdom-builder", seats=2, bots=1, options=options)
    start_from_lobby(page, table_id)
    board = page.locator(".kb-board")
    expect(board.locator(".hex")).to_have_count(400)
    view = api_json(page, f"/api/tables/{table_id}/")["view"]
    assert view["options"]["nomads"] and view["options"]["crossroads"]
    # Every nomad space of the laid board is drawn, and each Crossroads task is shown.
    spaces = len(view["board"]["nomad_spaces"])
    expect(board.locator(".nomad-space")).to_have_count(spaces)
    expect(page.locator(".walls-left")).to_contain_text("Stone walls left: 25")
    expect(page.locator(".kb-tasks .kb-card")).to_have_count(len(view["board"]["tasks"]))
    wait_for_your_turn(page)
    page.screenshot(path=artifacts / "table-kingdom-builder-expansions.png", full_page=True)
    for built in range(1, 4):
        board.locator(".hex.target").first.click()
        expect(page.locator("#log li", has_text=f"{ana.name} builds on")).to_have_count(built)
    assert ana.errors == []
