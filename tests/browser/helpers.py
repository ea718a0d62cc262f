"""Steps the browser tests share: creating tables from the lobby, reading the move log."""

from __future__ import annotations

import json
import re
from typing import Any

from playwright.sync_api import Page, expect

TABLE_URL = re.compile(r"/tables/[0-9a-f-]{36}/$")


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
    page.select_option("#create-ruleset", ruleset)
    page.fill("#create-seats", str(seats))
    page.fill("#create-bots", str(bots))
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
