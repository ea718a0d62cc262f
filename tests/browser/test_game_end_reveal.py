"""Once a game is over nothing is secret: a spectator in another browser sees every
seat's hidden information (Kingdoms starting tiles, Kingdom Cards hands, Kingdom Builder
terrain cards), live as the game ends and after a reload; never before the end."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.browser.helpers import api_json, create_table, start_from_lobby

pytestmark = pytest.mark.browser

# ruleset, table options, what each seat's revealed line says, the board to wait for.
GAMES = {
    "kingdoms": ({}, "starting tile: ", ".kingdoms-board"),
    "kingdom-cards": ({"allow_two_players": True}, "hand: ", ".kc-kingdoms"),
    "kingdom-builder": ({}, "in hand: ", ".kb-board"),
}


@pytest.mark.parametrize("ruleset", GAMES)
def test_a_spectator_sees_every_seats_secrets_once_the_game_is_over(new_player, artifacts, ruleset):
    options, words, board = GAMES[ruleset]
    ana = new_player("ana", width=1366, height=900)
    table_id = create_table(ana.page, ruleset, seats=2, bots=1, options=options)
    start_from_lobby(ana.page, table_id)
    expect(ana.page.locator(board)).to_be_visible()

    # A spectator watches from the start: public information only.
    eve = new_player("eve", width=1366, height=900)
    spectator = eve.page
    spectator.goto(f"/tables/{table_id}/")
    expect(spectator.locator(board)).to_be_visible()
    expect(spectator.locator("#turn-banner")).to_contain_text("You are watching")
    revealed = spectator.locator("#result [data-part='revealed'] li")
    expect(revealed).to_have_count(0)
    assert not api_json(spectator, f"/api/tables/{table_id}/view/")["state"].get("revealed")

    # Two seats: our resignation leaves the bot alone and the game ends at once.
    ana.page.click("#resign")
    ana.page.click("#resign-confirm")
    expect(spectator.locator("#turn-banner")).to_contain_text("Game over", timeout=30000)
    # The live log (the game's news, not a fresh read) names the player who left as such.
    expect(spectator.locator("#log")).to_contain_text(f"{ana.name} resigned")
    expect(spectator.locator("#log")).not_to_contain_text(f"{ana.name} (bot)")

    state = api_json(spectator, f"/api/tables/{table_id}/view/")["state"]
    secrets = {seat: part for seat, part in state["revealed"].items() if part}
    # A Kingdoms seat that already placed its starting tile has nothing left to hide.
    assert len(secrets) >= (1 if ruleset == "kingdoms" else 2), state["revealed"]
    seats = api_json(spectator, f"/api/tables/{table_id}/")["seats"]
    # Each player by their own name (one who resigned is not "(bot)" in the result).
    names = {str(s["seat"]): s["user"] or s["name"] for s in seats}
    for page, shot in ((spectator, "live"), (None, "reloaded")):
        if page is None:
            spectator.reload()
        expect(revealed).to_have_count(len(secrets))
        for seat in secrets:
            line = spectator.locator(f"#result [data-part='revealed'] li[data-seat='{seat}']")
            expect(line).to_contain_text(names[seat])
            expect(line).to_contain_text(words)
        # The players' panel no longer speaks of hidden tiles or cards.
        expect(spectator.locator("#seats")).not_to_contain_text("hidden")
        spectator.locator("#result").scroll_into_view_if_needed()
        spectator.screenshot(path=artifacts / f"reveal-{ruleset}-{shot}.png")
    line_text = spectator.locator("#result [data-part='revealed']").inner_text()
    if ruleset == "kingdom-builder":
        for part in secrets.values():
            for card in part["terrain_cards"]:
                assert card.replace("_", " ") in line_text.lower()
        # No turn bar once the game is over (no last turn, no "3 built").
        expect(spectator.locator("#kb-turn-bar")).to_have_count(0)
        expect(spectator.locator("#turn-bar")).to_be_hidden()
    assert ana.errors == [] and eve.errors == []
