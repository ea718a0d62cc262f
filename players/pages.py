"""HTML pages for ratings: the leaderboards (the profile page is in players/views.py)."""

from __future__ import annotations

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render

from games.rules import all_rulesets
from players import ratings


def leaderboards(request: HttpRequest) -> HttpResponse:
    """Every game's top ten, with a link to its full leaderboard."""
    boards = [
        {"key": r.key, "name": r.name, "players": ratings.leaderboard(r.key, 10)}
        for r in all_rulesets()
    ]
    return render(request, "players/leaderboards.html", {"boards": boards})


def leaderboard(request: HttpRequest, ruleset: str) -> HttpResponse:
    games = {r.key: r.name for r in all_rulesets()}
    if ruleset not in games:
        raise Http404("no such game")
    context = {
        "ruleset": ruleset,
        "ruleset_name": games[ruleset],
        "players": ratings.leaderboard(ruleset, 200),
        "games": games,
        "k_factor": ratings.K_FACTOR,
    }
    return render(request, "players/leaderboard.html", context)
