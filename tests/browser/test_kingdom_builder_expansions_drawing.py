"""The Kingdom Builder page with the Nomads and Crossroads expansions, in a real browser:
every expansion piece in the view must be drawn (positions:
tests/browser/kingdom_builder_expansions.py)."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.browser import test_renderers
from tests.browser.kingdom_builder_expansions import (
    CROSSROADS_BOARD,
    NOMADS_BOARD,
    RULES,
    Position,
    hex_at,
    play_until,
    show,
)
from tests.browser.test_renderers import mount

pytestmark = pytest.mark.browser
page = test_renderers.page  # the fixture: a fresh page that must end without page errors


# ---- drawing ------------------------------------------------------------------------------------
def _pieces(view: dict) -> dict[str, int]:
    players = view["players"]
    return {
        "wall": len(view["board"]["walls"]),
        "nomad": len(view["board"]["nomad_spaces"]),
        "taken": sum(1 for n in view["board"]["nomad_spaces"] if n["tile"] is None),
        "warrior": sum(len(p["warriors"]) for p in players),
        "wagon": sum(1 for p in players if p["wagon"]),
        "ship": sum(1 for p in players if p["ship"]),
        "city_hall": sum(1 for p in players if p["city_hall"]),
        "guarded": len(view["board"]["guarded"]),
    }


def _assert_drawn(page, position: Position, spectator: bool = False) -> dict[str, int]:
    """Mount the position (for the active seat, or a spectator) and count what is drawn."""
    view = RULES.view(position.state, None) if spectator else position.view
    if spectator:
        mount(page, "kingdom_builder", view, [], None)
    board = page.locator("#sandbox .kb-board") if spectator else show(page, position)
    counts = _pieces(view)
    expect(board.locator(".hex")).to_have_count(400)
    expect(board.locator(".piece.wall")).to_have_count(counts["wall"])
    expect(board.locator(".nomad-space")).to_have_count(counts["nomad"])
    expect(board.locator(".nomad-space.taken")).to_have_count(counts["taken"])
    expect(board.locator(".piece.warrior")).to_have_count(counts["warrior"])
    expect(board.locator(".piece.wagon")).to_have_count(counts["wagon"])
    expect(board.locator(".piece.ship")).to_have_count(counts["ship"])
    expect(board.locator(".piece.city-hall-hex")).to_have_count(7 * counts["city_hall"])
    expect(board.locator(".city-hall")).to_have_count(counts["city_hall"])
    expect(board.locator(".hex.guarded")).to_have_count(counts["guarded"])
    expect(board.locator(".hex.guarded .guard-mark")).to_have_count(counts["guarded"])
    # Every piece tells what it is.
    titles = board.locator(".piece").evaluate_all(
        "els => els.map(e => e.querySelector(':scope > title')?.textContent || '')"
    )
    assert all(titles), titles
    for space in view["board"]["nomad_spaces"]:
        tent = hex_at(board, space["hex"]).locator(".nomad-space")
        expect(tent).to_have_attribute("data-tile", space["tile"] or "")
        # A nomad tile is a picture, as a location's is: no three-letter code.
        expect(tent.locator(".loc-icon")).to_have_count(1 if space["tile"] else 0)
        if space["tile"]:
            expect(tent.locator(".loc-icon")).to_have_attribute("data-icon", space["tile"])
    expect(board.locator(".nomad-space .hex-label, .nomad-space text")).to_have_count(0)
    for wall in view["board"]["walls"]:
        expect(hex_at(board, wall).locator(".piece.wall")).to_have_count(1)
    for player in view["players"]:
        for hex_ in player["warriors"]:
            expect(hex_at(board, hex_)).to_have_attribute("data-seat", str(player["seat"]))
        if player["city_hall"]:
            expect(hex_at(board, player["city_hall"][0]).locator(".city-hall")).to_have_count(1)
    return counts


def test_walls_and_nomad_spaces_are_drawn_as_in_the_view(page, artifacts):
    position = play_until(
        NOMADS_BOARD, lambda p: _pieces(p.view)["wall"] >= 2 and _pieces(p.view)["taken"] >= 1
    )
    counts = _assert_drawn(page, position)
    assert counts["nomad"] > 0 and counts["wall"] >= 2
    # Each kind of nomad tile has a picture of its own (the donations one per terrain).
    kinds = page.locator("#sandbox .nomad-space .loc-icon").evaluate_all(
        "els => els.map(e => [e.dataset.icon, e.innerHTML])"
    )
    assert len({picture for _kind, picture in kinds}) == len({kind for kind, _ in kinds})
    page.locator("#sandbox .kb-board").screenshot(path=artifacts / "kb-nomad-spaces.png")
    expect(page.locator("#sandbox .walls-left")).to_have_text(
        f"Stone walls left: {position.view['board']['walls_left']}"
    )


def test_warriors_wagons_ships_and_city_halls_are_drawn_as_in_the_view(page):
    def crowded(p: Position) -> bool:
        c = _pieces(p.view)
        return c["warrior"] and c["wagon"] and c["ship"] and c["city_hall"]

    position = play_until(CROSSROADS_BOARD, crowded, games=30)
    counts = _assert_drawn(page, position)
    assert counts["guarded"] > 0
    tasks = page.locator("#sandbox .kb-task")
    expect(tasks).to_have_count(len(position.view["board"]["tasks"]))
    for task in position.view["board"]["tasks"]:
        earners = [p["seat"] for p in position.view["players"] if p["score"][task["task"]] > 0]
        card = page.locator(f"#sandbox .kb-task[data-task='{task['task']}']")
        expect(card).to_contain_text(f"{task['gold']} gold")
        expect(card).to_contain_text("Met now by" if earners else "Met by nobody yet")
    me = position.view["players"][position.seat]
    expect(page.locator("#sandbox .kb-pieces")).to_contain_text(
        f"Warriors: {len(me['warriors'])} on the board"
    )


def test_five_player_nomads_game_renders_without_page_errors(page):
    options = {
        "nomads": True,
        "board": "chosen",
        "sections": ["quarry", "farm", "caravan", "tavern"],
    }
    position = play_until(
        options, lambda p: sum(len(q["settlements"]) for q in p.view["players"]) >= 20, players=5
    )
    assert len(position.view["players"]) == 5
    board = show(page, position)
    counts = _assert_drawn(page, position)
    assert counts["nomad"] > 0
    expect(board.locator(".settlement")).to_have_count(
        sum(len(q["settlements"]) for q in position.view["players"])
    )
    seats = page.evaluate(
        """async (view) => {
            const kb = await import('/static/js/games/kingdom_builder.js');
            return [0, 1, 2, 3, 4].map(seat => kb.seatSummary(view, seat).textContent);
        }""",
        position.view,
    )
    assert all("settlements left" in line for line in seats)


def test_finished_crossroads_game_for_a_spectator_shows_who_earned_each_task(page):
    position = play_until(CROSSROADS_BOARD, lambda p: p.state.finished, max_steps=1000)
    _assert_drawn(page, position, spectator=True)
    view = RULES.view(position.state, None)
    for task in view["board"]["tasks"]:
        earners = [p["seat"] for p in view["players"] if p["score"][task["task"]] > 0]
        card = page.locator(f"#sandbox .kb-task[data-task='{task['task']}']")
        expect(card).to_contain_text("Earned by" if earners else "Earned by nobody")
    expect(page.locator("#sandbox .kb-pieces")).to_have_count(0)  # a spectator has no pieces
