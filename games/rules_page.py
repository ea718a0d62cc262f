"""The rules pages, ``/rules/<game>/``: each game's rules in our own words, its table
options (read from the ruleset, so they never drift from what the lobby offers) and the
choices the engine makes where the published rules are open."""

from __future__ import annotations

import re

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from games.rules import all_rulesets, get_ruleset
from games.rules_examples import examples, kb_cards, kingdoms_lines, kingdoms_rules, worked_rows


def rules(request: HttpRequest, ruleset: str) -> HttpResponse:
    try:
        game = get_ruleset(ruleset)
    except KeyError:
        return render(request, "games/rules/missing.html", {"games": _games()}, status=404)
    context = {
        "game": {
            "key": game.key,
            "name": game.name,
            "min": game.min_players,
            "max": game.max_players,
        },
        "options": [_option(o.as_json(), _value_labels(game.options)) for o in game.options],
        "games": _games(),
        # Positions for the pictures and the worked example's numbers, all from games the
        # engine played with the easy bots' moves (games/rules_examples.py).
        "examples": examples(game.key),
        "worked": worked_rows(game.key),
        "kb_cards": kb_cards() if game.key == "kingdom-builder" else [],
        "kingdoms_lines": kingdoms_lines() if game.key == "kingdoms" else [],
        "kingdoms_rules": kingdoms_rules() if game.key == "kingdoms" else [],
        "kb_tiles": KB_TILES,
        "kingdoms_tiles": KINGDOMS_TILES,
        "kc_cards": KC_CARDS,
    }
    return render(request, f"games/rules/{game.key}.html", context)


# The pictures' pieces: the base game's location tiles, one of each Kingdoms tile kind
# (resources and hazards by two examples), and a Kingdom Cards card of every role.
KB_TILES = ("oracle", "farm", "oasis", "tower", "tavern", "barn", "harbor", "paddock")
KINGDOMS_TILES = ("+3", "+6", "-2", "-5", "mountain", "dragon", "gold_mine", "wizard")
KC_CARDS = ("R1a", "Y2a", "B3a", "R4a", "Y5a", "B6a", "R7a", "Y8a", "B9a", "T1")


def _games() -> list[dict[str, str]]:
    return [{"key": r.key, "name": r.name} for r in all_rulesets()]


def _value_labels(options: tuple) -> dict[str, str]:
    """Every option value the lobby names, by value ("chosen" -> "Choose the sections")."""
    labels: dict[str, str] = {}
    for option in options:
        data = option.as_json()
        values, names = data["choices"] or [], data.get("labels") or []
        if len(values) == len(names):
            labels.update({str(v): n for v, n in zip(values, names, strict=True)})
    return labels


def _option(option: dict, declared_labels: dict[str, str]) -> dict:
    default = option["default"]
    if isinstance(default, bool):
        shown = "on" if default else "off"
    elif default is None:
        shown = "chosen at random" if option["name"] == "cards" else "none"
    else:
        shown = str(default)
    # The lobby's words for the option and its values, not the API's names.
    labels = option.get("labels") or []
    values = labels if len(labels) == len(option["choices"] or []) else option["choices"] or []
    if labels and default in (option["choices"] or []):
        shown = labels[option["choices"].index(default)]
    choices = ", ".join(str(c) for c in values)
    label = option.get("label") or option["name"].replace("_", " ").capitalize()
    return {
        **option,
        "label": label,
        "default_shown": shown,
        "choices_shown": choices,
        "description_shown": _players_words(option["description"], declared_labels),
    }


def _players_words(description: str, labels: dict[str, str]) -> str:
    """The API's description without its names: a quoted value ('chosen') becomes the
    lobby's label for it, and a name's underscores become spaces."""
    for value, label in labels.items():
        description = description.replace(f"'{value}'", f"“{label}”")
    return re.sub(r"(\w)_(?=\w)", r"\1 ", description)
