"""The pages speak to players in players' words: the navigation holds no developer link,
the shape toggle says what it is for, sign-up help is ours, and the create form's board
choice names no API option."""

from __future__ import annotations

import re

import pytest

from games.rules import get_ruleset

pytestmark = pytest.mark.django_db


def nav_of(body: str) -> str:
    return re.search(r'<nav class="site-nav".*?</nav>', body, re.S).group(0)


def test_the_navigation_holds_players_links_only(client, make_user):
    client.force_login(make_user("ana"))
    body = client.get("/").content.decode()
    nav = nav_of(body)
    assert "API docs" not in nav and "/api/docs/" not in nav
    assert "Colour-blind shapes: off" in nav
    # The API is on the About page, one link away at the foot of every page.
    assert 'href="/about/"' in body.split("</nav>", 1)[1]
    assert 'href="/api/docs/"' in client.get("/about/").content.decode()


def test_sign_up_help_is_in_our_words(client):
    body = client.get("/accounts/signup/").content.decode()
    assert "Required. 150 characters or fewer" not in body
    assert "can’t be too similar" not in body and "can't be too similar" not in body
    assert "The name other players see" in body
    assert "At least 8 characters" in body


def test_the_board_choice_names_no_api_option():
    board = next(o for o in get_ruleset("kingdom-builder").options if o.name == "board")
    assert "'sections'" not in board.description and "'rotations'" not in board.description
