"""Steps the browser tests share: creating tables from the lobby, reading the move log."""

from __future__ import annotations

import json
import re
import time
import urllib.request
from typing import Any

from playwright.sync_api import Page, expect

PASSWORD = "pw-browser-1234"  # every player the suite signs up

TABLE_URL = re.compile(r"/tables/[0-9a-f-]{36}/$")
# The game's own stream (not the table chat's, /ws/games/<id>/chat/).
GAME_SOCKET = re.compile(r"/ws/games/[0-9a-f-]{36}/(\?|$)")


def wait_for_lobby(page: Page) -> None:
    """Wait until the lobby is still: marked loaded after the form holds the game's usual
    table and the first tables and players are in, so nothing moves the form under a click."""
    expect(page.locator("#lobby[data-loaded='1']")).to_be_attached()


def create_table(
    page: Page,
    ruleset: str,
    seats: int,
    bots: int = 0,
    level: str = "easy",
    options: dict[str, bool] | None = None,
    time_control: dict[str, Any] | None = None,
    think_seconds: float | None = None,
) -> str:
    """Fill the lobby's create form; returns the new table's id (from its card)."""
    page.goto("/")
    wait_for_lobby(page)
    page.select_option("#create-ruleset", ruleset)
    page.fill("#create-seats", str(seats))
    # The form fills every empty seat but the host's with bots, or none.
    assert bots in (0, seats - 1), "the lobby fills all empty seats with bots or none"
    page.locator("#create-fill-bots").set_checked(bots > 0)
    page.select_option("#create-bot-level", level)
    for name, checked in (options or {}).items():
        page.locator(f"#opt-{name}").set_checked(checked)
    if think_seconds is not None:
        page.fill("#create-bot-think", str(think_seconds))
    if time_control:
        page.select_option("#time-kind", time_control["kind"])
        for name, value in time_control.items():
            if name != "kind":
                page.fill(f"#time-{name}", str(value))
    before = page.locator(".table-card").evaluate_all("els => els.map(e => e.dataset.tableId)")
    page.click("#create-submit")
    # The toast comes once the table exists and every bot has sat down.
    expect(page.locator(".toast", has_text="Table created")).to_be_visible()
    ids = page.locator(".table-card").evaluate_all("els => els.map(e => e.dataset.tableId)")
    return next(i for i in ids if i not in before)


def start_from_lobby(page: Page, table_id: str) -> None:
    page.locator(f".table-card[data-table-id='{table_id}'] button", has_text="Start").click()
    page.wait_for_url(TABLE_URL)


def log_seqs(page: Page) -> list[int]:
    return page.locator("#log li").evaluate_all("els => els.map(e => Number(e.dataset.seq))")


def api_json(page: Page, path: str) -> Any:
    """GET an API path with the page's session."""
    return page.evaluate(
        "async (p) => { const r = await fetch(p, {credentials: 'same-origin'}); return r.json(); }",
        path,
    )


def frames_json(frames: list[str | bytes]) -> list[dict]:
    out = []
    for frame in frames:
        try:
            out.append(json.loads(frame))
        except (TypeError, ValueError):
            continue
    return out


def wait_for_your_turn(page: Page, timeout: float = 20000) -> None:
    expect(page.locator("#turn-banner")).to_have_attribute("data-your-turn", "1", timeout=timeout)


def first_showing(selector: str, *players, timeout: float = 20):
    """The first of ``players`` whose page shows ``selector`` (polls, fails on timeout)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        for player in players:
            if player.page.locator(selector).count():
                return player
        players[0].page.wait_for_timeout(100)
    raise AssertionError(f"no player's page shows {selector}")


def whose_turn(*players, timeout: float = 20):
    """The one of ``players`` whose page says it is their turn."""
    return first_showing("#turn-banner[data-your-turn='1']", *players, timeout=timeout)


def api_post(base: str, path: str, body: dict, token: str | None = None) -> dict:
    """POST JSON to the server from the test process (no browser, no session)."""
    request = urllib.request.Request(
        base + path,
        data=json.dumps(body).encode(),
        headers={"Content-Type": "application/json", "Accept": "application/json"},
        method="POST",
    )
    if token:
        request.add_header("Authorization", f"Token {token}")
    with urllib.request.urlopen(request, timeout=15) as response:
        return json.loads(response.read() or b"{}")


def api_tokens(base: str, *players) -> dict[str, str]:
    """Each player's API token, by name (players signed up with the suite's password)."""
    body = {p.name: {"username": p.name, "password": PASSWORD} for p in players}
    return {
        name: api_post(base, "/api/auth/token/", login)["token"] for name, login in body.items()
    }


def string_values(payload) -> set[str]:
    """Every string value in a JSON payload (not the keys: the option "wizard" is a key,
    the Wizard tile a value)."""
    found: set[str] = set()
    stack = [payload]
    while stack:
        item = stack.pop()
        if isinstance(item, dict):
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)
        elif isinstance(item, str):
            found.add(item)
    return found


def record_frames(page: Page) -> list[str | bytes]:
    """Every frame the page receives on the game's sockets from now on (reconnections too)."""
    frames: list[str | bytes] = []

    def on_socket(ws) -> None:
        if GAME_SOCKET.search(ws.url):
            ws.on("framereceived", lambda payload: frames.append(payload))

    page.on("websocket", on_socket)
    return frames


def seat_two_players(host, guest, ruleset: str, options: dict[str, bool] | None = None):
    """The host creates a two-seat table, the guest joins from their lobby (it appears there
    live) and opens the table page; the host starts the game from the lobby. Returns the
    table id and the game frames each page received (recorded from before the start)."""
    table_id = create_table(host.page, ruleset, seats=2, options=options)
    guest_card = guest.page.locator(f".table-card[data-table-id='{table_id}']")
    expect(guest_card).to_be_visible()
    guest_card.get_by_role("button", name="Join").click()
    host_card = host.page.locator(f".table-card[data-table-id='{table_id}']")
    expect(host_card.locator(".seat-line")).to_have_count(2)
    frames = {host.name: record_frames(host.page), guest.name: record_frames(guest.page)}
    guest.page.goto(f"/tables/{table_id}/")
    expect(guest.page.locator("#prelude")).to_contain_text("2 of 2 seats")
    start_from_lobby(host.page, table_id)
    return table_id, frames


def events_in(frames: list[str | bytes]) -> list[dict]:
    """The game events in a page's frames, as that page received them."""
    return [event for news in frames_json(frames) for event in news.get("events") or []]


def views_in(frames: list[str | bytes]) -> list[dict]:
    return [news["view"] for news in frames_json(frames) if news.get("view")]
