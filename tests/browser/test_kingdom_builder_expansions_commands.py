"""The Kingdom Builder page with the Nomads and Crossroads expansions, in a real browser:
clicking the highlighted hexes or the labelled buttons must send exactly one of the engine's
legal commands of that type (positions: tests/browser/kingdom_builder_expansions.py)."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.browser import test_renderers
from tests.browser.kingdom_builder_expansions import (
    CROSSROADS_BOARD,
    NOMADS_BOARD,
    assert_sent_one_of,
    has,
    hex_at,
    is_,
    play_until,
    present,
    show,
    targets,
)
from tests.browser.test_renderers import sent

pytestmark = pytest.mark.browser
page = test_renderers.page  # the fixture: a fresh page that must end without page errors


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
