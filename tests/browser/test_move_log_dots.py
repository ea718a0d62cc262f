"""The move log's colour dot is the seat the line is about, not the seat whose command
produced the event: a Kingdom Cards game played on by bots after our resignation (its
battles, turns and challenges arrive in batches after other seats' commands)."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from tests.browser.helpers import api_json, create_table, start_from_lobby

pytestmark = pytest.mark.browser

COLOURS = ["#E69F00", "#56B4E9", "#009E73", "#CC79A7", "#0072B2", "#D55E00"]

LINES = """() => [...document.querySelectorAll('#log li')].filter((li) => !li.hidden).map((li) => ({
  type: li.dataset.type, actor: li.dataset.actor, about: li.dataset.about,
  text: li.querySelector('.log-text').textContent,
  fill: li.querySelector('.seat-badge .badge-plain')?.getAttribute('fill') || null,
  system: !!li.querySelector('.log-system'),
}))"""


def test_each_dot_is_the_seat_the_line_names(new_player, artifacts):
    ana = new_player("ana", width=1366, height=900)
    page = ana.page
    table_id = create_table(page, "kingdom-cards", seats=3, bots=2, level="medium")
    start_from_lobby(page, table_id)
    expect(page.locator(".kc-kingdoms .kc-kingdom")).to_have_count(3)
    page.click("#resign")
    page.click("#resign-confirm")
    expect(page.locator("#result")).to_be_visible(timeout=90000)
    seats = api_json(page, f"/api/tables/{table_id}/")["seats"]
    # The log calls the player who resigned by their own name (the seat list: "(bot)").
    names = {s["seat"]: s["user"] if s["resigned"] else s["name"] for s in seats}
    by_length = sorted(names.items(), key=lambda item: -len(item[1]))

    lines = page.evaluate(LINES)
    named = 0
    not_the_actor = 0
    for line in lines:
        if line["about"] == "":
            assert line["system"] and line["fill"] is None, line  # the table's plain dot
            continue
        about = int(line["about"])
        assert line["fill"] == COLOURS[about], line
        subject = next((seat for seat, name in by_length if line["text"].startswith(name)), None)
        if subject is not None:
            assert subject == about, f"the dot is {names[about]}'s, the line is about {line}"
            named += 1
            if line["actor"] not in (f"seat:{about}", f"bot:{about}"):
                not_the_actor += 1
    assert named >= 5, lines
    # Lines produced by another seat's command (a turn begun by the last move, a battle
    # won on the defender's bid) carry their subject's dot.
    assert not_the_actor >= 1, lines
    # "carla won the battle": the winner's dot, whoever's bid or give-up ended it.
    battles = [line for line in lines if line["type"] == "battle_won"]
    assert battles, "a game played to its end has battles"
    for line in battles:
        winner = names[int(line["about"])]
        assert line["text"].startswith(f"{winner} won the battle"), line
    # The result line: the winner's dot.
    result = next(line for line in lines if line["type"] == "result_declared")
    if result["about"] == "":  # a shared victory is about no one seat: the plain dot
        assert "share the victory" in result["text"], result
        return
    winner = re.escape(names[int(result["about"])])
    assert re.match(rf"Game over(\. Won by |: .*?so |: ){winner}[ .;]", result["text"]), result
    page.locator("#log").screenshot(path=artifacts / "log-dots-kingdom-cards.png")
    assert ana.errors == []


def test_log_numbers_count_the_visible_lines(new_player, artifacts):
    """A timed table presses clocks on every move: those events are hidden lines, and the
    numbers a player reads still go 1, 2, 3… without gaps."""
    ana = new_player("ana", width=390, height=844)
    page = ana.page
    clock = {"kind": "realtime", "minutes": 5, "increment_seconds": 3}
    table_id = create_table(page, "kingdoms", seats=2, bots=1, time_control=clock)
    start_from_lobby(page, table_id)
    expect(page.locator("#log li[hidden]").first).to_be_attached(timeout=20000)
    numbers = page.evaluate(
        """() => [...document.querySelectorAll('#log li')].filter((li) => !li.hidden)
          .map((li) => li.querySelector('.log-seq').textContent)"""
    )
    assert numbers == [str(n) for n in range(1, len(numbers) + 1)], numbers
    page.locator("#log").screenshot(path=artifacts / "log-numbers-phone.png")
