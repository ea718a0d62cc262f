"""Kingdoms in a real browser: lobby to result, secrets per player, socket recovery."""

from __future__ import annotations

import json

import pytest
from playwright.sync_api import expect

from tests.browser.helpers import (
    GAME_SOCKET,
    api_json,
    api_post,
    create_table,
    frames_json,
    log_seqs,
    start_from_lobby,
    string_values,
    wait_for_your_turn,
)

pytestmark = pytest.mark.browser


def test_kingdoms_with_bots_from_the_lobby_to_the_result(new_player, artifacts):
    ana = new_player("ana")
    page = ana.page
    table_id = create_table(page, "kingdoms", seats=3, bots=2)
    card = page.locator(f".table-card[data-table-id='{table_id}']")
    expect(card.locator(".seat-line")).to_have_count(3)
    page.screenshot(path=artifacts / "lobby.png", full_page=True)
    # The filters: an open table is not "in progress", and is among Kingdoms tables.
    page.select_option("#filter-status", "active")
    expect(card).to_have_count(0)
    page.select_option("#filter-status", "open")
    page.select_option("#filter-ruleset", "kingdom-cards")
    expect(card).to_have_count(0)
    page.select_option("#filter-ruleset", "kingdoms")
    expect(card).to_have_count(1)

    start_from_lobby(page, table_id)
    expect(page.locator(".kingdoms-board")).to_be_visible()
    wait_for_your_turn(page)

    # A whole turn by clicking: pick a rank-1 castle, then a highlighted empty space.
    page.click("[data-castle-rank='1']")
    targets = page.locator(".kingdoms-board .target")
    empty = page.locator(".kingdoms-board .cell-empty").count()
    expect(targets).to_have_count(empty)
    target = targets.first
    row, col = int(target.get_attribute("data-row")), int(target.get_attribute("data-col"))
    target.click()
    mine = page.locator("#log li", has_text=f"{ana.name} placed a rank-1 castle")
    expect(mine).to_have_count(1)
    expect(mine).to_contain_text(f"row {row + 1}, column {col + 1}")
    cell = page.locator(f".kingdoms-board .cell[data-row='{row}'][data-col='{col}']")
    expect(cell.locator(".castle")).to_have_count(1)

    # The bots' moves after ours arrive live in the log.
    my_seq = int(mine.get_attribute("data-seq"))
    page.wait_for_function(
        "seq => [...document.querySelectorAll('#log li')].some("
        "li => Number(li.dataset.seq) > seq && li.dataset.actor.startsWith('bot:'))",
        arg=my_seq,
    )
    page.screenshot(path=artifacts / "table-kingdoms.png", full_page=True)

    # Resign: a bot plays on for us, the game runs to its end, the result shows. From the
    # resignation on we watch as a spectator (no seat of ours), so note the seat first.
    me = page.evaluate("window.kingdomTable.yourSeat")
    page.click("#resign")
    page.click("#resign-confirm")
    result = page.locator("#result")
    expect(result).to_be_visible(timeout=45000)
    expect(page.locator("#turn-banner")).to_contain_text("Game over")
    rows = result.locator("tbody tr")
    expect(rows).to_have_count(3)
    # Resigned players rank last; each line shows its breakdown by epoch.
    expect(rows.last).to_contain_text(ana.name)
    expect(rows.first.locator(".breakdown-list")).to_contain_text("epoch 3")
    table = api_json(page, f"/api/tables/{table_id}/")
    head = table["head_seq"]
    assert log_seqs(page) == list(range(1, head + 1))
    # The resigned seat ranks last, alone (the bots may tie above it: a shared place).
    ranking = table["outcome"]["ranking"]
    assert ranking[-1] == [me]
    page.screenshot(path=artifacts / "table-kingdoms-result.png", full_page=True)

    # Replay: step back to the start and forward again with the buttons.
    page.click("[data-step='first']")
    expect(page.locator("#turn-banner")).to_contain_text("just after move 1 of")
    page.click("[data-step='next']")
    page.click("[data-step='next']")
    expect(page.locator("#turn-banner")).to_contain_text("just after move 3 of")
    expect(page.locator(".kingdoms-board")).to_be_visible()
    expect(page.locator(".kingdoms-board .cell-full")).to_have_count(0)
    page.locator("#replay-slider").fill(str(head // 2))
    expect(page.locator("#turn-banner")).to_contain_text(f"just after move {head // 2} of")
    page.click("[data-step='last']")
    expect(page.locator("#turn-banner")).to_contain_text("Game over")

    # The profile lists the game with its place.
    page.click("[data-testid='nav-profile']")
    expect(page.locator(".games-table tbody tr")).to_contain_text("3 of 3")
    page.screenshot(path=artifacts / "profile.png", full_page=True)
    assert ana.errors == []


def test_two_players_each_see_only_their_own_starting_tile(
    new_player, browser, server_url, artifacts
):
    ana = new_player("ana")
    bo = new_player("bo")
    frames: dict[str, list] = {"ana": [], "bo": [], "watcher": []}

    def record(who):
        def on_socket(ws):
            if GAME_SOCKET.search(ws.url):
                ws.on("framereceived", lambda payload: frames[who].append(payload))

        return on_socket

    table_id = create_table(ana.page, "kingdoms", seats=2)
    # Bo's lobby shows the new table without a reload, and Bo joins from it.
    bo_card = bo.page.locator(f".table-card[data-table-id='{table_id}']")
    expect(bo_card).to_be_visible()
    bo_card.get_by_role("button", name="Join").click()
    expect(ana.page.locator(f".table-card[data-table-id='{table_id}'] .seat-line")).to_have_count(2)

    bo.page.on("websocket", record("bo"))
    bo.page.goto(f"/tables/{table_id}/")
    expect(bo.page.locator("#prelude")).to_contain_text("2 of 2 seats")
    ana.page.on("websocket", record("ana"))
    start_from_lobby(ana.page, table_id)

    watcher_context = browser.new_context(base_url=server_url)
    watcher = watcher_context.new_page()
    watcher.on("websocket", record("watcher"))
    watcher.goto(f"/tables/{table_id}/")

    for page in (ana.page, bo.page, watcher):
        expect(page.locator(".kingdoms-board")).to_be_visible()
    tiles = {}
    for who, page in (("ana", ana.page), ("bo", bo.page)):
        own = page.locator("[data-testid='my-starting-tile']")
        expect(own).to_have_count(1)
        tiles[who] = own.get_attribute("data-tile")
        expect(page.locator(".starting-tile.hidden-tile")).to_have_count(1)
    expect(watcher.locator("[data-testid='my-starting-tile']")).to_have_count(0)
    expect(watcher.locator(".starting-tile.hidden-tile")).to_have_count(2)
    expect(watcher.locator("#turn-banner")).to_contain_text("You are watching")
    assert tiles["ana"] != tiles["bo"]

    # Nobody's page or socket carries the other's secret (tile ids are distinct strings).
    for page, other in ((ana.page, tiles["bo"]), (bo.page, tiles["ana"])):
        expect(page.locator(f"[data-tile='{other}']")).to_have_count(0)
        assert f'data-tile="{other}"' not in page.content()
    expect(watcher.locator("[data-tile]")).to_have_count(0)
    for who, other in (("ana", "bo"), ("bo", "ana")):
        received = string_values(frames_json(frames[who]))
        assert received, f"{who} received no frames"
        assert tiles[who] in received, "a player's own starting tile reaches them"
        assert tiles[other] not in received, f"{other}'s starting tile reached {who}"
    watched = string_values(frames_json(frames["watcher"]))
    assert watched and tiles["ana"] not in watched and tiles["bo"] not in watched

    # The seat to act plays by keyboard; the other player and the watcher see it live.
    first = None
    for _ in range(150):
        for player in (ana, bo):
            if player.page.locator("#turn-banner[data-your-turn='1']").count():
                first = player
        if first:
            break
        ana.page.wait_for_timeout(100)
    assert first is not None, "neither player's page says it is their turn"
    other = bo if first is ana else ana
    first.page.locator("[data-castle-rank='2']").focus()
    first.page.keyboard.press("Enter")
    cell = first.page.locator(".kingdoms-board .target").first
    expect(cell).to_have_attribute("tabindex", "0")
    cell.focus()
    first.page.keyboard.press("Enter")
    line = f"{first.name} placed a rank-2 castle"
    for page in (first.page, other.page, watcher):
        expect(page.locator("#log li", has_text=line)).to_have_count(1)
    # A refused move shows the API's message (the page never guesses the rules).
    first.page.evaluate("window.kingdomTable.send({type: 'draw_tile'})")
    expect(first.page.locator(".toast-error")).to_contain_text("turn, not yours")
    wait_for_your_turn(other.page)
    other.page.screenshot(path=artifacts / "table-kingdoms-two-players.png", full_page=True)
    watcher_context.close()
    assert ana.errors == [] and bo.errors == []


def place_a_castle(page, name: str, placed: int) -> None:
    wait_for_your_turn(page)
    page.click("[data-castle-rank='1']")
    page.locator(".kingdoms-board .target").first.click()
    expect(page.locator("#log li", has_text=f"{name} placed a rank-1 castle")).to_have_count(placed)


def test_the_page_recovers_when_the_server_closes_its_socket(
    new_player, server_url, moderator_token
):
    ana = new_player("ana")
    page = ana.page
    table_id = create_table(page, "kingdoms", seats=3, bots=2)
    routes = []
    lost = []
    closed_by_server: list[int | None] = []

    def route(ws):
        # A pass-through between the page and the real server that only watches (and
        # loses one message, below); the close comes from the server.
        server = ws.connect_to_server()
        routes.append(ws)
        first_connection = len(routes) == 1
        count = {"n": 0}

        def from_server(message):
            count["n"] += 1
            # The channel layer is at-most-once: lose one news message on the way, one
            # that a bot's move follows (so the next message shows the gap).
            if first_connection and not lost and count["n"] > 1:
                news = json.loads(message)
                to_act = (news.get("view") or {}).get("to_act") or []
                if news.get("events") and to_act and news.get("your_seat") not in to_act:
                    lost.append(news["events"][0]["seq"])
                    return
            ws.send(message)

        def server_closed(code, reason):
            closed_by_server.append(code)
            ws.close(code=code, reason=reason)

        server.on_message(from_server)
        server.on_close(server_closed)

    page.route_web_socket(GAME_SOCKET, route)
    start_from_lobby(page, table_id)
    page.evaluate(
        """() => {
            window.connStates = [];
            const conn = document.getElementById('conn');
            new MutationObserver(() => window.connStates.push(conn.dataset.state + ':' + conn.textContent))
              .observe(conn, {attributes: true, childList: true, characterData: true, subtree: true});
        }"""
    )
    place_a_castle(page, ana.name, 1)
    place_a_castle(page, ana.name, 2)
    assert lost, "a news message was dropped on its way to the page"
    expect(page.locator(f"#log li[data-seq='{lost[0]}']")).to_have_count(1)

    # A moderator closes the game's sockets (POST .../disconnect/: the consumer closes with
    # code 4000) and the game moves on meanwhile: the page says so, reconnects and fills
    # in what it missed.
    wait_for_your_turn(page)
    expect(page.locator("#conn")).to_have_attribute("data-state", "live")
    sockets = len(routes)
    closed = api_post(
        server_url,
        f"/api/tables/{table_id}/disconnect/",
        {"reason": "browser test: server-side close"},
        token=moderator_token,
    )
    assert closed == {"closed": True}
    page.wait_for_function("() => window.connStates.some(s => s.startsWith('down:reconnecting'))")
    # One close, from the server's side. Its code is the consumer's 4000
    # (tests/community/moderation/test_aborts_and_disconnects.py); the page's socket once
    # saw 1006 (a close without its frame) on a loaded CI machine, and the page must
    # recover from either.
    assert len(closed_by_server) == 1, f"the server closed the page's socket: {closed_by_server}"
    assert closed_by_server[0] in (4000, 1006)
    page.click("[data-castle-rank='2']")
    page.locator(".kingdoms-board .target").first.click()
    expect(page.locator("#log li", has_text=f"{ana.name} placed a rank-2 castle")).to_have_count(1)
    expect(page.locator("#conn")).to_have_attribute("data-state", "live")
    assert len(routes) == sockets + 1, "the page opened one new socket"
    place_a_castle(page, ana.name, 3)

    # At our turn nothing moves: the log holds every event once, in order.
    wait_for_your_turn(page)
    head = api_json(page, f"/api/tables/{table_id}/")["head_seq"]
    expect(page.locator("#log li")).to_have_count(head)
    assert log_seqs(page) == list(range(1, head + 1)), "every event shown once, in order"
    assert ana.errors == []
