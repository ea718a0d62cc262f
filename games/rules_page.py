"""The rules pages, ``/rules/<game>/``: each game's rules in our own words, its table
options (read from the ruleset, so they never drift from what the lobby offers) and the
choices the engine makes where the published rules are open."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from games.rules import all_rulesets, get_ruleset


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
        "options": [_option(o.as_json()) for o in game.options],
        "games": _games(),
    }
    return render(request, f"games/rules/{game.key}.html", context)


def _games() -> list[dict[str, str]]:
    return [{"key": r.key, "name": r.name} for r in all_rulesets()]


def _option(option: dict) -> dict:
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
    return {**option, "label": label, "default_shown": shown, "choices_shown": choices}
