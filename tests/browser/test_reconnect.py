"""The reconnecting socket (static/js/socket.js) in a real browser: its waits double from
the first up to the cap with jitter, start again from the first once a socket opens, and
stop for good on close(); the lobby page reconnects after the server closes its socket
and catches up on what it missed."""

from __future__ import annotations

import re
import socket

import pytest
from playwright.sync_api import expect

from tests.browser.helpers import create_table

pytestmark = pytest.mark.browser

LOBBY_SOCKET = re.compile(r"/ws/lobby/$")
PROBE_SOCKET = re.compile(r"/ws/lobby/\?probe$")

IMPORT_SOCKET_JS = """
  const base = document.querySelector('script[src*="/js/prefs.js"]').src;
  const { ReconnectingSocket, backoffDelay } = await import(new URL('socket.js', base));
"""


def _closed_port() -> int:
    """A port nothing listens on: a socket to it is refused at once."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def test_the_wait_doubles_from_the_first_up_to_the_cap_with_jitter(new_player):
    page = new_player("ana").page
    waits = page.evaluate(
        "async () => {"
        + IMPORT_SOCKET_JS
        + """
          const backoff = {first: 100, max: 1000, jitter: 0.25};
          return [0, 1, 2, 3, 4, 40].map((n) => [0, 0.5, 1].map((r) => backoffDelay(n, backoff, () => r)));
        }"""
    )
    assert waits == [
        [75, 100, 125],
        [150, 200, 250],
        [300, 400, 500],
        [600, 800, 1000],
        [750, 1000, 1000],  # the cap holds with the jitter too
        [750, 1000, 1000],
    ]


def test_refused_attempts_back_off_and_close_stops_them(new_player):
    page = new_player("ana").page
    result = page.evaluate(
        "async (port) => {"
        + IMPORT_SOCKET_JS
        + """
          const attempts = [];
          const waits = [];
          const sock = new ReconnectingSocket(() => `ws://127.0.0.1:${port}/`, {
            first: 100, max: 400, jitter: 0.25,
            onConnecting: (attempt) => attempts.push([attempt, performance.now()]),
            onOpen: () => waits.push('opened'),
            onClose: (ev, {retryIn}) => waits.push(retryIn),
          }).open();
          await new Promise((done) => setTimeout(done, 2200));
          sock.close();
          const seen = [attempts.length, waits.length];
          await new Promise((done) => setTimeout(done, 800));
          return {attempts, waits, seen, isOpen: sock.isOpen};
        }""",
        _closed_port(),
    )
    attempts, waits = result["attempts"], result["waits"]
    assert [a for a, _ in attempts] == list(range(len(attempts))), "no open: the count grows"
    assert len(attempts) >= 4, attempts
    assert "opened" not in waits
    for n, wait in enumerate(waits):
        base = min(100 * 2**n, 400)
        assert 0.75 * base <= wait <= base + 0.25 * base and wait <= 400, (n, waits)
    # Each attempt came no sooner than the wait announced after the one before.
    for (_, before), (_, after), wait in zip(attempts, attempts[1:], waits, strict=False):
        assert after - before >= wait - 2, (attempts, waits)
    assert result["seen"] == [len(attempts), len(waits)], "close() ends the attempts and hooks"
    assert result["isOpen"] is False


def test_the_wait_starts_again_from_the_first_once_a_socket_opens(new_player):
    page = new_player("ana").page
    routes = []

    def route(ws):
        # A stand-in server that closes each socket once the page has spoken on it.
        routes.append(ws)
        ws.on_message(lambda _message: ws.close(code=4000, reason="test"))

    page.route_web_socket(PROBE_SOCKET, route)
    page.goto("/")  # the route takes effect in the documents loaded after it
    result = page.evaluate(
        "async () => {"
        + IMPORT_SOCKET_JS
        + """
          const log = [];
          const url = () => `ws://${location.host}/ws/lobby/?probe`;
          const sock = new ReconnectingSocket(url, {
            first: 100, max: 5000, jitter: 0.25,
            onOpen: (ev, {reopened}) => { log.push(['open', reopened]); sock.send('hello'); },
            onClose: (ev, {retryIn}) => log.push(['close', ev.code, retryIn]),
          }).open();
          const deadline = performance.now() + 10000;
          while (log.filter((e) => e[0] === 'close').length < 4 && performance.now() < deadline) {
            await new Promise((done) => setTimeout(done, 20));
          }
          sock.close();
          return log;
        }"""
    )
    opens = [entry for entry in result if entry[0] == "open"]
    closes = [entry for entry in result if entry[0] == "close"]
    assert [reopened for _, reopened in opens[:4]] == [False, True, True, True]
    for _, code, retry_in in closes[:4]:
        assert code == 4000
        assert 75 <= retry_in <= 125, "each open resets the wait to the first"
    assert len(routes) >= 4


def test_the_lobby_reconnects_after_the_server_closes_and_catches_up(new_player):
    ana = new_player("ana")
    bo = new_player("bo")
    page = ana.page
    routes = []
    lossy = {"on": False}

    def route(ws):
        # A pass-through that can lose the server's news (the channel layer is
        # at-most-once) and close the page's socket as the server would.
        server = ws.connect_to_server()
        routes.append(ws)

        def from_server(message):
            if not lossy["on"]:
                ws.send(message)

        server.on_message(from_server)
        server.on_close(lambda code, reason: ws.close(code=code, reason=reason))

    page.route_web_socket(LOBBY_SOCKET, route)
    page.goto("/")
    live = page.locator("#lobby-live")
    expect(live).to_have_attribute("data-state", "live")
    assert len(routes) == 1

    # News of Bo's table is lost on the way: Ana's lobby does not show it yet.
    lossy["on"] = True
    table_id = create_table(bo.page, "kingdoms", seats=3)
    card = page.locator(f".table-card[data-table-id='{table_id}']")
    page.wait_for_timeout(500)
    expect(card).to_have_count(0)

    # The socket is closed from the server's side: the page says so, opens a new one and
    # reads the tables again.
    page.evaluate(
        """() => {
            window.liveStates = [];
            const live = document.getElementById('lobby-live');
            new MutationObserver(() => window.liveStates.push(live.dataset.state))
              .observe(live, {attributes: true, childList: true, subtree: true});
        }"""
    )
    lossy["on"] = False
    routes[0].close(code=4000, reason="browser test: server-side close")
    expect(card).to_be_visible()
    expect(live).to_have_attribute("data-state", "live")
    assert "down" in page.evaluate("window.liveStates")
    assert len(routes) == 2, "the page opened one new socket"
    assert ana.errors == []
