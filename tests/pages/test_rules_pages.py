"""The rules pages: one per game at /rules/<game>/, with its variants (every declared
table option) and the engine's choices where the rules are open, linked from the lobby
and from every table page."""

from __future__ import annotations

import html

import pytest

from games.rules import all_rulesets, get_ruleset
from tests.games.helpers import game_with_bots

pytestmark = pytest.mark.django_db

RULESETS = [r.key for r in all_rulesets()]
# One choice per game from docs/rules-choices.md.
A_CHOICE = {
    "kingdoms": "Gold may go below zero",
    "kingdom-builder": "pays its reward once per player",
    "kingdom-cards": "An empty-handed defender may take cards back",
}


@pytest.mark.parametrize("ruleset", RULESETS)
def test_each_game_has_a_rules_page_with_its_variants_and_the_engines_choices(client, ruleset):
    response = client.get(f"/rules/{ruleset}/")
    assert response.status_code == 200
    body = html.unescape(response.content.decode())
    rules = get_ruleset(ruleset)
    assert f"{rules.name}: the rules" in body
    for option in rules.options:
        assert f'data-option="{option.name}"' in body
        # What it does, in the description's words, with no API name in it.
        row = body.split(f'data-option="{option.name}"', 1)[1].split("</tr>", 1)[0]
        assert option.description.split(":")[0].split("'")[0].replace("_", " ")[:20] in row
    assert 'id="engine-choices"' in body
    assert A_CHOICE[ruleset] in body


def test_an_unknown_game_has_no_rules_page_but_names_the_games(client):
    response = client.get("/rules/chess/")
    assert response.status_code == 404
    body = response.content.decode()
    assert all(f"/rules/{key}/" in body for key in RULESETS)


def test_the_lobby_links_every_rules_page(client):
    body = client.get("/").content.decode()
    assert all(f'href="/rules/{key}/"' in body for key in RULESETS)


@pytest.mark.parametrize("ruleset", RULESETS)
def test_a_table_page_links_its_games_rules(client, make_user, ruleset):
    game = game_with_bots(make_user(), ruleset=ruleset, bots=2)
    body = client.get(f"/tables/{game.id}/").content.decode()
    assert f'href="/rules/{ruleset}/"' in body


@pytest.mark.parametrize("ruleset", RULESETS)
def test_a_rules_page_names_options_in_players_words(client, ruleset):
    body = html.unescape(client.get(f"/rules/{ruleset}/").content.decode())
    rules = get_ruleset(ruleset)
    for option in rules.options:
        row = body.split(f'data-option="{option.name}"', 1)[1].split("</tr>", 1)[0]
        assert option.as_json()["label"] in row
        # The API's name (last_castle, allow_two_players) is no word on the page.
        if "_" in option.name:
            after = body.split('class="rules-options"', 1)[1].split("</table>", 1)[1]
            assert option.name not in row and option.name not in after
