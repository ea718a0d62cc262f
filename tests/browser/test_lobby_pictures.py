"""The lobby sells the games: a picture of each, drawn by its own board code, beside its
sentence, on a laptop and on a phone (where the sentence shows too)."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

pytestmark = pytest.mark.browser


@pytest.mark.parametrize("size", [(1366, 768), (390, 844)])
def test_each_game_has_its_picture_and_sentence(new_player, artifacts, size):
    ana = new_player("ana", width=size[0], height=size[1])
    page = ana.page

    def picture(game: str):
        return page.locator(f".game-picture[data-picture='{game}']")

    expect(picture("kingdom-builder").locator("polygon").first).to_be_visible()
    expect(picture("kingdom-builder").locator(".settlement").first).to_be_visible()
    expect(picture("kingdoms").locator(".castle").first).to_be_visible()
    expect(picture("kingdoms").locator(".tile").first).to_be_visible()
    expect(picture("kingdom-cards").locator(".kc-card")).to_have_count(4)
    for about in page.locator(".game-blurb .about").all():
        expect(about).to_be_visible()
    page.screenshot(path=artifacts / f"lobby-pictures-{size[0]}.png")
    assert ana.errors == []
