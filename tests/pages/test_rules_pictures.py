"""The rules pages' pictures and worked example: each page holds its pictures' places,
the real positions they are drawn from, and a worked example whose numbers are the
engine's own scoring of a game it played; no API or engine name shows as text."""

from __future__ import annotations

import html
import json
import random
import re

import pytest

from games.rules import all_rulesets, get_ruleset
from games.rules.base import seeded_rng
from games.rules.kingdoms.scoring import score_position
from games.rules_examples import KB_CARD_GAMES, examples

pytestmark = pytest.mark.django_db

RULESETS = [r.key for r in all_rulesets()]
PICTURES = {
    "kingdom-builder": {"board": 1, "kb-tile": 8, "kb-card": 10, "worked": 1},
    "kingdoms": {
        "board": 1,
        "kingdoms-tile": 8,
        "kingdoms-castle": 4,
        "kingdoms-rule": 4,
        "worked": 1,
    },
    "kingdom-cards": {"board": 1, "kc-card": 10, "worked": 1},
}
# API and engine names that must never show as words on a page.
ENGINE_WORDS = (
    "crossroads_pieces_score",
    "designer_no_terrain",
    "terrain_draw",
    "last_castle",
    "allow_two_players",
    "auto_complete",
    "score_as_you_go",
    "keep_kingdom",
    "bonus_halves",
    "cards_held",
    "epoch_1",
    "place_castle",
    "move_undone",
    "lighthouse_and_foresters_lodge",
    "'chosen'",
    "booleans",
)


def visible_text(body: str) -> str:
    """The page's words: no tags, attributes, scripts or JSON."""
    body = re.sub(r"<script.*?</script>", " ", body, flags=re.S)
    return html.unescape(re.sub(r"<[^>]+>", " ", body))


def page(client, ruleset: str) -> str:
    response = client.get(f"/rules/{ruleset}/")
    assert response.status_code == 200
    return response.content.decode()


def rules_data(body: str) -> dict:
    return json.loads(
        html.unescape(
            body.split('id="rules-examples" type="application/json">')[1].split("</script>")[0]
        )
    )


@pytest.mark.parametrize("ruleset", RULESETS)
def test_each_rules_page_has_its_pictures_and_their_positions(client, ruleset):
    body = page(client, ruleset)
    for picture, count in PICTURES[ruleset].items():
        assert body.count(f'data-picture="{picture}"') == count, picture
    data = rules_data(body)
    assert data["opening"]["finished"] is False
    assert data["worked"]["view"]["finished"] is True


@pytest.mark.parametrize("ruleset", RULESETS)
def test_no_engine_word_shows_and_the_open_choices_are_in_players_words(client, ruleset):
    text = visible_text(page(client, ruleset))
    for word in ENGINE_WORDS:
        assert word not in text, word
    assert "Choices the rules leave open" in text


def test_the_board_options_are_in_players_words(client):
    body = page(client, "kingdom-builder")
    row = body.split('data-option="rotations"', 1)[1].split("</tr>", 1)[0]
    words = " ".join(visible_text(row).split())
    assert "turned 180°, upside down" in words, words
    assert "true" not in words and "boolean" not in words


@pytest.mark.parametrize("ruleset", RULESETS)
def test_each_page_says_its_pictures_are_games_the_bots_played(client, ruleset):
    """The pictures are seeded playouts of the easy bots' moves, not games people played."""
    text = " ".join(visible_text(page(client, ruleset)).split())
    assert "pictures of games the site's easy bots played" in text
    assert "real game" not in text and "played on this site" not in text


def engine_outcome(ruleset: str, options: dict, seed: str) -> dict:
    """The same game played again here, step by step, and scored by the engine."""
    rules = get_ruleset(ruleset)
    opts = rules.clean_options(options)
    state = rules.fold(rules.setup(opts, rules.seat_range(opts)[0], seeded_rng(seed, 0)))
    pick = random.Random(seed)
    seq = 1
    while rules.outcome(state) is None:
        seat = sorted(rules.to_act(state))[0]
        command = pick.choice(rules.bot_commands(state, seat))
        state = rules.fold(rules.decide(state, seat, command, seeded_rng(seed, seq)), state)
        seq += 1
    return rules.outcome(state).as_json()


def worked_table(body: str, player: str) -> dict[str, str]:
    table = body.split(f'data-player="{player}"', 1)[1].split("</table>", 1)[0]
    rows = dict(
        re.findall(r'data-part="([a-z_0-9]+)"><th scope="row">[^<]*</th><td>(-?\d+)</td>', table)
    )
    rows["total"] = re.search(
        r'class="worked-total"><th scope="row">[^<]*</th><td>(-?\d+)</td>', table
    ).group(1)
    return rows


def test_kingdoms_worked_example_is_the_engines_scoring(client):
    body = page(client, "kingdoms")
    outcome = engine_outcome("kingdoms", {}, "rules-page-kingdoms")
    for seat, name in (("0", "Orange"), ("1", "Sky blue")):
        shown = worked_table(body, name)
        assert int(shown["total"]) == outcome["scores"][seat]
        for part in ("start", "epoch_1", "epoch_2", "epoch_3"):
            assert int(shown[part]) == outcome["breakdown"][seat][part]
    # The line-by-line sheet is the engine's epoch scoring of the board shown, and adds up
    # to the last epoch's gold.
    view = examples("kingdoms")["worked"]["view"]
    grid = [[(cell or {}).get("code", "") for cell in row] for row in view["grid"]]
    sheet = score_position({"grid": grid})["players"]
    lines = body.split('id="worked-lines"', 1)[1].split("</table>", 1)[0]
    row1 = re.search(r"Row 1</th><td>(-?\d+)</td><td>(-?\d+)</td>", lines).groups()
    assert [int(v) for v in row1] == [sheet["0"]["rows"][0], sheet["1"]["rows"][0]]
    total = re.search(r"Epoch total</th><td>(-?\d+)</td><td>(-?\d+)</td>", lines).groups()
    assert [int(v) for v in total] == [outcome["breakdown"][s]["epoch_3"] for s in ("0", "1")]


# Each scoring rule's picture: row 1 of an otherwise empty board (seat 0 Orange, seat 1
# Sky blue) and what each player's castles gain there, by the rulings.
RULE_ROWS = {
    # Cut at the Mountain: 1 x 5 on its left, 2 x (3 - 6) on its right.
    "mountain": (["castle:0:1", "+5", "mountain", "+3", "castle:1:2", "-6"], [5, -6]),
    # The resources count nothing beside the Dragon: 2 x -2 and 1 x -2.
    "dragon": (["castle:0:2", "+6", "dragon", "-2", "castle:1:1", "+4"], [-4, -2]),
    # Doubled by the Gold Mine: (3 - 1 + 1) x 2 = 6 a rank.
    "gold_mine": (["castle:0:1", "+3", "gold_mine", "-1", "castle:1:2", "+1"], [6, 12]),
    # Both castles beside the Wizard count one rank more: (2 + 1) x 4 and (1 + 1) x 4.
    "wizard": (["castle:0:2", "wizard", "castle:1:1", "+3", "+2", "-1"], [12, 8]),
}


def test_each_kingdoms_scoring_rule_has_a_picture_with_the_engines_numbers(client):
    body = page(client, "kingdoms")
    views = rules_data(body)["scoring_rules"]
    assert len(views) == len(RULE_ROWS)
    for (rule, (row, gains)), view in zip(RULE_ROWS.items(), views, strict=True):
        # The picture's position: the row, laid by legal moves, the rest empty.
        assert [(cell or {}).get("code", "") for cell in view["grid"][0]] == row
        assert all(cell is None for line in view["grid"][1:] for cell in line)
        # The engine's epoch scoring of that board gives the rulings' numbers, and the
        # view the renderer draws carries them.
        grid = [row, *[[""] * 6 for _ in range(4)]]
        sheet = score_position({"grid": grid})["players"]
        assert [sheet[seat]["rows"][0] for seat in ("0", "1")] == gains
        assert [sheet[seat]["total"] for seat in ("0", "1")] == gains, "the columns pay 0"
        drawn = next(v for v in view["line_values"] if v["line"] == "row" and v["index"] == 0)
        assert drawn["gains"] == gains
        figure = body.split(f'data-rule-figure="{rule}"', 1)[1].split("</figure>", 1)[0]
        assert 'data-picture="kingdoms-rule"' in figure
        words = re.sub(r"\s+([,.:])", r"\1", " ".join(visible_text(figure).split()))
        assert f"Row 1 pays Orange {gains[0]:+d}, Sky blue {gains[1]:+d}." in words, words
    mountain = body.split('data-rule-figure="mountain"', 1)[1].split("</figure>", 1)[0]
    words = " ".join(visible_text(mountain).split())
    assert (
        "Left of the Mountain (Orange's rank-1 castle, +5): a rank is worth +5, so Orange (rank 1) +5."
        in words
    )
    assert "Right of the Mountain (+3, Sky blue's rank-2 castle, -6): a rank is worth -3" in words
    wizard = body.split('data-rule-figure="wizard"', 1)[1].split("</figure>", 1)[0]
    words = " ".join(visible_text(wizard).split())
    assert "a rank is worth +4, so Orange (rank 2 + 1) +12, Sky blue (rank 1 + 1) +8." in words


def test_kingdom_builder_worked_example_and_cards_are_the_engines_scoring(client):
    body = page(client, "kingdom-builder")
    outcome = engine_outcome(
        "kingdom-builder",
        {"cards": list(KB_CARD_GAMES[0]), "board": "first_game"},
        "rules-page-kingdom-builder-0",
    )
    for seat, name in (("0", "Orange"), ("1", "Sky blue")):
        shown = worked_table(body, name)
        assert int(shown["total"]) == outcome["scores"][seat]
        for part in ("castles", *KB_CARD_GAMES[0]):
            assert int(shown[part]) == outcome["breakdown"][seat][part]
    # Every one of the ten cards has its picture and the gold it paid there; the first
    # game's cards pay what the engine's outcome says.
    for card in (
        "fishermen",
        "miners",
        "workers",
        "merchants",
        "discoverers",
        "knights",
        "hermits",
        "citizens",
        "farmers",
        "lords",
    ):
        figure = body.split(f'data-card-figure="{card}"', 1)[1].split("</figure>", 1)[0]
        words = re.sub(r"\s+([,.])", r"\1", " ".join(visible_text(figure).split()))
        gold = re.search(r"Here: Orange (\d+), Sky blue (\d+) gold", words)
        assert gold, words
        if card in KB_CARD_GAMES[0]:
            assert [int(g) for g in gold.groups()] == [
                outcome["breakdown"][s][card] for s in ("0", "1")
            ]


def test_kingdom_cards_worked_example_is_the_engines_ranking(client):
    body = page(client, "kingdom-cards")
    outcome = engine_outcome("kingdom-cards", {}, "rules-page-kingdom-cards")
    for seat, name in (("0", "Orange"), ("1", "Sky blue"), ("2", "Green")):
        shown = worked_table(body, name)
        assert int(shown["total"]) == outcome["scores"][seat]
        assert int(shown["cards_held"]) == outcome["breakdown"][seat]["cards_held"]
    winner = ("Orange", "Sky blue", "Green")[outcome["winners"][0]]
    assert f"{winner} — wins" in html.unescape(body)
