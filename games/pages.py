"""HTML pages. They render a shell; all game data arrives through the API and socket."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from games import selectors
from games.errors import NotFound
from games.rules import all_rulesets


def lobby(request: HttpRequest) -> HttpResponse:
    rulesets = [
        {"key": r.key, "name": r.name, "min": r.min_players, "max": r.max_players}
        for r in all_rulesets()
    ]
    return render(request, "games/lobby.html", {"rulesets": rulesets})


def table(request: HttpRequest, game_id: str) -> HttpResponse:
    try:
        game = selectors.get_game(game_id)
    except NotFound:
        return render(request, "games/missing.html", status=404)
    return render(request, "games/table.html", {"game": game})
