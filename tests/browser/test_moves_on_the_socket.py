"""The table page sends our moves on the game socket it already holds
(static/js/table/stream.js ``submit``): no HTTP request per move. When no socket is open,
or it closes before answering, the move goes by POST with the same command_id, which the
server applies at most once."""

from __future__ import annotations

import json

import pytest
from playwright.sync_api import expect

from tests.browser.helpers import GAME_SOCKET, api_json, create_table, start_from_lobby

pytestmark = pytest.mark.browser

OUR_MOVE = "() => window.kingdomTable.currentLegal().length > 0 && !window.kingdomTable.pending"
SEND_FIRST_LEGAL = """async () => {
  const table = window.kingdomTable;
  const command = table.currentLegal()[0];
  await table.send(command);
  return {command, movesBy: table.stream.movesBy, lastSeq: table.lastSeq};
}"""


def _our_table(new_player):
    """A two-seat Kingdoms table against an easy bot, started, at our first move; the page,
    and the frames it sends on the game socket and the move POSTs it makes from now on."""
    player = new_player("ana")
    page = player.page
    sent: list[dict] = []
    received: list[dict] = []

    def on_socket(ws) -> None:
        if GAME_SOCKET.search(ws.url):
            ws.on("framesent", lambda payload: sent.append(json.loads(payload)))
            ws.on("framereceived", lambda payload: received.append(json.loads(payload)))

    page.on("websocket", on_socket)
    posts: list[str] = []
    page.on(
        "request",
        lambda request: posts.append(request.url)
        if request.method == "POST" and request.url.endswith("/commands/")
        else None,
    )
    table_id = create_table(page, "kingdoms", seats=2, bots=1)
    start_from_lobby(page, table_id)
    page.wait_for_function(OUR_MOVE, timeout=20000)
    expect(page.locator("#conn")).to_have_attribute("data-state", "live")
    return player, table_id, sent, received, posts


def _our_events(page, table_id: str) -> list[dict]:
    events = api_json(page, f"/api/tables/{table_id}/events/?after=0")["events"]
    me = page.evaluate("window.kingdomTable.yourSeat")
    return [event for event in events if event["actor"] == f"seat:{me}"]


def test_a_move_goes_on_the_game_socket_and_no_request_is_made(new_player):
    player, table_id, sent, received, posts = _our_table(new_player)
    page = player.page
    moved = page.evaluate(SEND_FIRST_LEGAL)
    assert moved["movesBy"] == {"socket": 1, "post": 0}
    assert posts == []
    [command] = [frame for frame in sent if frame.get("type") == "command"]
    assert command["command"] == moved["command"]
    assert command["expected_seq"] > 0 and len(command["command_id"]) == 36
    # The answer rides in the frame of the move's events (games/sockets/consumers.py).
    [frame] = [frame for frame in received if "accepted" in frame]
    answer = frame["accepted"]
    assert answer["ref"] == command["ref"] and answer["replayed"] is False
    assert frame["type"] == "events" and frame["head"] == answer["head_seq"]
    assert not [frame for frame in received if frame.get("type") == "accepted"]
    page.wait_for_function(f"window.kingdomTable.lastSeq >= {answer['head_seq']}")
    expect(page.locator("#log li").last).to_be_visible()
    assert player.errors == []


def test_a_move_goes_by_post_when_no_socket_is_open(new_player):
    player, table_id, sent, _received, posts = _our_table(new_player)
    page = player.page
    page.evaluate("window.kingdomTable.stream.socket.close()")  # closed for good
    moved = page.evaluate(SEND_FIRST_LEGAL)
    assert moved["movesBy"] == {"socket": 0, "post": 1}
    assert len(posts) == 1
    assert not [frame for frame in sent if frame.get("type") == "command"]
    # The POST's answer carries our events: the log shows them without the socket.
    head = api_json(page, f"/api/tables/{table_id}/events/?after=0")["head_seq"]
    assert moved["lastSeq"] >= 1 and moved["lastSeq"] <= head
    assert player.errors == []


def test_a_move_whose_socket_closes_before_the_answer_is_applied_once(new_player):
    player, table_id, sent, _received, posts = _our_table(new_player)
    page = player.page
    before = len(_our_events(page, table_id))
    # The socket carries the move, then drops before its answer can come back: the page
    # sends it again by POST with the same command_id.
    page.evaluate(
        """() => {
          const socket = window.kingdomTable.stream.socket;
          const send = socket.send.bind(socket);
          socket.send = (data) => {
            const done = send(data);
            if (data.type === "command") socket.socket.close(4001);
            return done;
          };
        }"""
    )
    moved = page.evaluate(SEND_FIRST_LEGAL)
    assert moved["movesBy"] == {"socket": 1, "post": 1}
    assert len([frame for frame in sent if frame.get("type") == "command"]) == 1
    assert len(posts) == 1
    after = _our_events(page, table_id)
    assert len(after) == before + 1, "the move was applied once, whichever way came first"
    assert player.errors == []


def test_logging_out_in_another_tab_reloads_the_table_signed_out(new_player):
    player, table_id, _sent, _received, _posts = _our_table(new_player)
    page = player.page
    other_tab = player.context.new_page()
    other_tab.goto("/")
    other_tab.get_by_role("button", name="Log out").click()
    # The table's sockets were opened by the session that ended: the server closes them,
    # and the page reloads as a visitor, who may watch but not move.
    expect(page.get_by_label("Main").get_by_role("link", name="Log in")).to_be_visible()
    page.wait_for_function("window.kingdomTable && window.kingdomTable.status === 'active'")
    assert page.evaluate("window.kingdomTable.yourSeat") is None
    assert page.evaluate("window.kingdomTable.currentLegal().length") == 0
