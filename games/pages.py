"""HTML pages. They render a shell; all game data arrives through the API and socket."""

from __future__ import annotations

from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from games import selectors
from games.errors import NotFound
from games.rules import all_rulesets, get_ruleset
from games.rules.base import Ruleset
from games.services import BOT_LEVELS, BOT_THINK_SECONDS_RANGE

# Each game in a sentence, for a newcomer choosing one in the lobby.
GAME_IN_A_SENTENCE = {
    "kingdoms": "Place castles and tiles on a 5×6 grid: each row and column pays the owners "
    "of its castles. Three epochs; the most gold wins.",
    "kingdom-builder": "Build settlements on the terrain your card shows, next to your own, "
    "and score the three goals dealt for this game.",
    "kingdom-cards": "Win cards in battles and build a people, an army and a court under one "
    "flag; the first complete kingdom wins.",
}


def lobby(request: HttpRequest) -> HttpResponse:
    rulesets = [
        {
            "key": r.key,
            "name": r.name,
            "min": r.min_players,
            "max": r.max_players,
            "about": GAME_IN_A_SENTENCE.get(r.key, ""),
            # A quick game against bots: three seats where the game allows.
            "quick_seats": max(r.min_players, min(3, r.max_players)),
            # Quick match: the seat counts of the game's usual table.
            "seat_counts": _seat_counts(r),
        }
        for r in all_rulesets()
    ]
    low, high = BOT_THINK_SECONDS_RANGE
    think = {"min": low, "max": high, "default": settings.BOT_THINK_SECONDS}
    # A new account (no game started yet) is offered a guided first game.
    offer_guide = request.user.is_authenticated and not selectors.has_played(request.user)
    context = {
        "rulesets": rulesets,
        "think": think,
        "bot_levels": BOT_LEVELS,
        "offer_guide": offer_guide,
        "waits": settings.QUICK_MATCH_WAITS,
    }
    return render(request, "games/lobby.html", context)


def _seat_counts(rules: Ruleset) -> list[int]:
    low, high = rules.seat_range(rules.clean_options({}))
    return list(range(low, high + 1))


def about(request: HttpRequest) -> HttpResponse:
    """What the site is, how its shuffles can be checked, and (last) its API."""
    games = [
        {"key": r.key, "name": r.name, "about": GAME_IN_A_SENTENCE.get(r.key, "")}
        for r in all_rulesets()
    ]
    return render(request, "about.html", {"games": games})


def table(request: HttpRequest, game_id: str) -> HttpResponse:
    try:
        game = selectors.get_game(game_id)
    except NotFound:
        return render(request, "games/missing.html", status=404)
    try:
        ruleset_name = get_ruleset(game.ruleset).name
    except KeyError:
        ruleset_name = game.ruleset
    user = request.user
    config = {
        "game_id": str(game.id),
        "ruleset": game.ruleset,
        "ruleset_name": ruleset_name,
        "username": user.get_username() if user.is_authenticated else None,
        "status": game.status,
    }
    context = {"game": game, "ruleset_name": ruleset_name, "table_config": config}
    return render(request, "games/table.html", context)
