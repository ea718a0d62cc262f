"""The audit page of one game: ``/tables/<id>/audit/`` (data from audit.trail)."""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from audit import trail
from games import selectors
from games.errors import NotFound


def audit_page(request: HttpRequest, game_id: str) -> HttpResponse:
    try:
        game = selectors.get_game(game_id)
    except NotFound:
        return render(request, "games/missing.html", status=404)
    if not trail.may_audit(game, request.user):
        context: dict[str, Any] = {"game": game}
        return render(request, "audit/audit_closed.html", context, status=403)
    report = trail.audit_report(game)
    config = {
        "game_id": str(game.id),
        "ruleset": game.ruleset,
        "head_seq": game.head_seq,
        "names": {str(s["seat"]): s["name"] for s in report["seats"] if s["seat"] is not None},
    }
    context = {"game": game, "report": report, "audit_config": config}
    return render(request, "audit/audit.html", context)
