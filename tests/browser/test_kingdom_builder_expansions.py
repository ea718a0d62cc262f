"""The Kingdom Builder page with the Nomads and Crossroads expansions, in a real browser.

Positions come from the real engine: a game set up with both expansions is played with
seeded random legal commands (tile and nomad-tile commands preferred, so the expansions'
pieces come into play) until the command wanted is legal. Clicking the highlighted hexes
or the labelled buttons must send exactly one of the engine's legal commands of that type,
and every expansion piece in the view must be drawn.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import pytest
from playwright.sync_api import expect

from games.rules import get_ruleset
from tests.browser import test_renderers
from tests.browser.test_renderers import mount, sent

pytestmark = pytest.mark.browser
page = test_renderers.page  # the fixture: a fresh page that must end without page errors

RULES = get_ruleset("kingdom-builder")
NOMADS_BOARD = {
    "nomads": True,
    "crossroads": True,
    "board": "chosen",
    "sections": ["quarry", "caravan", "village", "garden"],
}
CROSSROADS_BOARD = {
    "nomads": True,
    "crossroads": True,
    "board": "chosen",
    "sections": [
        "city_hall_and_outpost",
        "barracks_and_crossroads",
        "lighthouse_and_foresters_lodge",
        "monastery_and_wagon",
    ],
}
PREFERRED = ("use_nomad_tile", "use_tile", "take_back_piece")
Command = dict[str, Any]


class Position:
    """A state reached by play, with the active seat's view and legal commands."""

    def __init__(self, state: Any) -> None:
        self.state = state
        self.seat = state.active
        self.view = RULES.view(state, self.seat)
        self.legal = RULES.legal_commands(state, self.seat)

    def of(self, wanted: Callable[[Command], bool]) -> list[Command]:
        return [c for c in self.legal if wanted(c)]


def _set_up(options: dict, players: int, seed: int) -> Any:
    state = None
    for event in RULES.setup(options, players, random.Random(seed)):
        state = RULES.evolve(state, event)
    return state


def play_until(
    options: dict,
    wanted: Callable[[Position], bool],
    *,
    players: int = 2,
    seed: int = 1,
    games: int = 12,
    max_steps: int = 400,
) -> Position:
    """Play seeded random legal commands until ``wanted(position)``; bounded: at most
    ``games`` games (seeds ``seed``, ``seed + 1``...) of ``max_steps`` commands each."""
    for game in range(games):
        rng = random.Random(seed + game)
        state = _set_up(options, players, seed + game)
        for _ in range(max_steps):
            position = Position(state)
            if wanted(position):
                return position
            if state.finished:
                break
            preferred = [c for c in position.legal if c["type"] in PREFERRED]
            pool = preferred if preferred and rng.random() < 0.7 else position.legal
            command = rng.choice(pool)
            for event in RULES.decide(state, position.seat, command, rng):
                state = RULES.evolve(state, event)
    pytest.fail(f"no position reached where the wanted command is legal ({games} games)")


def has(kind: str, **fields: Any) -> Callable[[Position], bool]:
    def check(position: Position) -> bool:
        return any(
            c["type"] == kind and all(test(c.get(k)) for k, test in fields.items())
            for c in position.legal
        )

    return check


def is_(value: Any) -> Callable[[Any], bool]:
    return lambda v: v == value


def present(v: Any) -> bool:
    return v is not None


def show(page, position: Position) -> Any:
    mount(page, "kingdom_builder", position.view, position.legal, position.seat)
    return page.locator("#sandbox .kb-board")


def hex_at(board, pair: list[int]) -> Any:
    return board.locator(f".hex[data-row='{pair[0]}'][data-col='{pair[1]}']")


def targets(board) -> set[tuple[int, int]]:
    cells = board.locator(".hex.target").evaluate_all(
        "els => els.map(e => [Number(e.dataset.row), Number(e.dataset.col)])"
    )
    return {tuple(cell) for cell in cells}


def assert_sent_one_of(page, commands: list[Command]) -> Command:
    got = sent(page)
    assert len(got) == 1, got
    assert got[0] in commands, (got[0], commands)
    return got[0]


# ---- hex commands during a Nomads action ------------------------------------------------------
def test_quarry_second_wall_is_placed_on_a_highlighted_hex_or_finished(page):
    position = play_until(NOMADS_BOARD, has("place_wall"))
    walls = position.of(lambda c: c["type"] == "place_wall")
    board = show(page, position)
    assert targets(board) == {tuple(c["hex"]) for c in walls}
    hex_at(board, walls[-1]["hex"]).click()
    assert assert_sent_one_of(page, walls) == walls[-1]
    # The same position: the labelled button stops after one wall.
    show(page, position)
    page.click("#sandbox #finish-action")
    assert sent(page) == [{"type": "finish_action"}]
    assert {"type": "finish_action"} in position.legal


def test_quarry_first_wall_by_tile_then_hex(page):
    position = play_until(NOMADS_BOARD, has("use_tile", tile=is_("quarry")))
    uses = position.of(lambda c: c["type"] == "use_tile" and c["tile"] == "quarry")
    board = show(page, position)
    page.click("#sandbox button[data-tile='quarry']")
    assert targets(board) == {tuple(c["to"]) for c in uses}
    hex_at(board, uses[0]["to"]).click()
    assert assert_sent_one_of(page, uses) == uses[0]


def test_sword_removes_a_highlighted_opponent_settlement(page):
    position = play_until(NOMADS_BOARD, has("remove_settlement"))
    removals = position.of(lambda c: c["type"] == "remove_settlement")
    victim = position.view["turn"]["action"]["victim"]
    assert {tuple(c["hex"]) for c in removals} == {
        tuple(h) for h in position.view["players"][victim]["settlements"]
    }
    board = show(page, position)
    assert targets(board) == {tuple(c["hex"]) for c in removals}
    target = hex_at(board, removals[0]["hex"])
    expect(target).to_have_attribute("data-seat", str(victim))
    expect(page.locator("#kb-hint")).to_contain_text("Sword")
    target.click()
    assert assert_sent_one_of(page, removals) == removals[0]


def test_resettlement_step_picks_a_settlement_then_a_neighbouring_hex(page):
    position = play_until(NOMADS_BOARD, has("move_settlement"))
    steps = position.of(lambda c: c["type"] == "move_settlement")
    board = show(page, position)
    assert targets(board) == {tuple(c["from"]) for c in steps}
    source = steps[-1]["from"]
    hex_at(board, source).click()
    expect(board.locator(".hex.picked")).to_have_count(1)
    assert targets(board) == {tuple(c["to"]) for c in steps if c["from"] == source}
    hex_at(board, steps[-1]["to"]).click()
    assert assert_sent_one_of(page, steps) == steps[-1]


def test_donation_builds_on_highlighted_hexes_of_its_terrain(page):
    position = play_until(
        NOMADS_BOARD,
        lambda p: bool((p.view["turn"] or {}).get("action"))
        and p.view["turn"]["action"]["kind"] == "donation",
    )
    builds = position.of(lambda c: c["type"] == "build")
    board = show(page, position)
    assert targets(board) == {tuple(c["hex"]) for c in builds}
    hex_at(board, builds[0]["hex"]).click()
    assert assert_sent_one_of(page, builds) == builds[0]


# ---- buttons: nomad tiles ----------------------------------------------------------------------
def test_use_nomad_tile_is_a_labelled_button(page):
    position = play_until(NOMADS_BOARD, has("use_nomad_tile"))
    uses = position.of(lambda c: c["type"] == "use_nomad_tile")
    for command in uses:
        show(page, position)
        button = page.locator(f"#sandbox button[data-nomad-tile='{command['tile']}']")
        expect(button).to_be_enabled()
        expect(button).to_contain_text("Use ")
        button.click()
        assert sent(page) == [command]


# ---- location tiles of the expansions ----------------------------------------------------------
@pytest.mark.parametrize(
    ("options", "tile"),
    [
        (NOMADS_BOARD, "village"),
        (NOMADS_BOARD, "garden"),
        (CROSSROADS_BOARD, "foresters_lodge"),
        (CROSSROADS_BOARD, "monastery"),
        (CROSSROADS_BOARD, "outpost"),
        (CROSSROADS_BOARD, "city_hall"),
        (CROSSROADS_BOARD, "barracks"),
        (CROSSROADS_BOARD, "wagon"),
        (CROSSROADS_BOARD, "lighthouse"),
    ],
)
def test_placing_tile_pick_the_tile_then_a_highlighted_hex(page, options, tile):
    position = play_until(
        options, has("use_tile", tile=is_(tile), to=present, **{"from": lambda v: v is None})
    )
    uses = position.of(lambda c: c["type"] == "use_tile" and c["tile"] == tile and "from" not in c)
    board = show(page, position)
    page.click(f"#sandbox button[data-tile='{tile}']")
    expect(page.locator(f"#sandbox button[data-tile='{tile}']")).to_have_attribute(
        "aria-pressed", "true"
    )
    backs = position.of(lambda c: c["type"] == "take_back_piece" and c["tile"] == tile)
    assert targets(board) == {tuple(c["to"]) for c in uses} | {tuple(c["hex"]) for c in backs}
    chosen = uses[len(uses) // 2]
    hex_at(board, chosen["to"]).click()
    assert assert_sent_one_of(page, uses) == chosen


@pytest.mark.parametrize(
    ("options", "tile"),
    [(NOMADS_BOARD, "caravan"), (CROSSROADS_BOARD, "wagon"), (CROSSROADS_BOARD, "lighthouse")],
)
def test_moving_tile_pick_the_tile_then_the_piece_then_where(page, options, tile):
    position = play_until(options, has("use_tile", tile=is_(tile), **{"from": present}))
    moves = position.of(lambda c: c["type"] == "use_tile" and c["tile"] == tile and "from" in c)
    board = show(page, position)
    page.click(f"#sandbox button[data-tile='{tile}']")
    source = moves[0]["from"]
    assert tuple(source) in targets(board)
    hex_at(board, source).click()
    expect(board.locator(".hex.picked")).to_have_count(1)
    ends = {tuple(c["to"]) for c in moves if c["from"] == source}
    backs = {
        tuple(c["hex"])
        for c in position.of(lambda c: c["type"] == "take_back_piece" and c["tile"] == tile)
    }
    assert targets(board) == ends | (backs & {tuple(source)})
    if tile != "caravan":
        piece = "wagon" if tile == "wagon" else "ship"
        expect(hex_at(board, source)).to_have_attribute("data-piece", piece)
    hex_at(board, moves[-1]["to"] if moves[-1]["from"] == source else moves[0]["to"]).click()
    assert assert_sent_one_of(page, moves)["from"] == source


@pytest.mark.parametrize("tile", ["barracks", "wagon", "lighthouse"])
def test_take_back_piece_pick_the_tile_then_the_piece(page, tile):
    position = play_until(CROSSROADS_BOARD, has("take_back_piece", tile=is_(tile)))
    backs = position.of(lambda c: c["type"] == "take_back_piece" and c["tile"] == tile)
    moves = position.of(lambda c: c["type"] == "use_tile" and c["tile"] == tile and "from" in c)
    board = show(page, position)
    page.click(f"#sandbox button[data-tile='{tile}']")
    piece = hex_at(board, backs[0]["hex"])
    piece.click()
    if any(c["from"] == backs[0]["hex"] for c in moves):
        # The piece may also move: the first click picks it, a second one takes it back.
        assert sent(page) == []
        expect(board.locator(".hex.picked")).to_have_count(1)
        piece.click()
    assert assert_sent_one_of(page, backs) == backs[0]


def test_crossroads_extra_card_is_chosen_with_labelled_buttons(page):
    position = play_until(
        CROSSROADS_BOARD,
        lambda p: len(p.of(lambda c: c["type"] == "play_terrain_card")) >= 2,
    )
    plays = position.of(lambda c: c["type"] == "play_terrain_card")
    show(page, position)
    buttons = page.locator("#sandbox .actions button.primary")
    expect(buttons).to_have_count(len(plays))
    buttons.last.click()
    assert assert_sent_one_of(page, plays) == plays[-1]


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
        expect(hex_at(board, space["hex"]).locator(".nomad-space")).to_have_attribute(
            "data-tile", space["tile"] or ""
        )
    for wall in view["board"]["walls"]:
        expect(hex_at(board, wall).locator(".piece.wall")).to_have_count(1)
    for player in view["players"]:
        for hex_ in player["warriors"]:
            expect(hex_at(board, hex_)).to_have_attribute("data-seat", str(player["seat"]))
        if player["city_hall"]:
            expect(hex_at(board, player["city_hall"][0]).locator(".city-hall")).to_have_count(1)
    return counts


def test_walls_and_nomad_spaces_are_drawn_as_in_the_view(page):
    position = play_until(
        NOMADS_BOARD, lambda p: _pieces(p.view)["wall"] >= 2 and _pieces(p.view)["taken"] >= 1
    )
    counts = _assert_drawn(page, position)
    assert counts["nomad"] > 0 and counts["wall"] >= 2
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
