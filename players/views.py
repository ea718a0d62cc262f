"""Sign-up (page and API), API tokens and player profiles."""

from __future__ import annotations

from django.contrib.auth import get_user_model, login
from django.contrib.auth.forms import UserCreationForm
from django.db import IntegrityError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from drf_spectacular.utils import extend_schema
from rest_framework import permissions
from rest_framework.authtoken.models import Token
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from games.api.serializers import SignupSerializer
from games.errors import Conflict
from games.models import Game
from games.rules import all_rulesets
from players.ratings import ratings_for


def shared_place(ranking: list[list[int]], seat: int) -> int | None:
    """The seat's place as results are usually printed: players who tie share a place
    and the next place is skipped (two tied winners, then 3rd)."""
    ahead = 0
    for group in ranking:
        if seat in group:
            return ahead + 1
        ahead += len(group)
    return None


def signup(request: HttpRequest) -> HttpResponse:
    form = UserCreationForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        user = form.save()
        login(request, user)
        return redirect("lobby")
    return render(request, "players/signup.html", {"form": form})


def profile(request: HttpRequest, username: str) -> HttpResponse:
    user = get_object_or_404(get_user_model(), username=username)
    games = (
        Game.objects.filter(seats__user=user)
        .exclude(status=Game.Status.OPEN)
        .prefetch_related("seats")
        .distinct()[:100]
    )
    names = {r.key: r.name for r in all_rulesets()}
    rows = []
    stats = {"played": 0, "won": 0, "active": 0}
    per_game: dict[str, dict] = {}
    for game in games:
        seat = next((s for s in game.seats.all() if s.user_id == user.pk), None)
        place = score = None
        if game.outcome and seat and seat.number is not None:
            place = shared_place(game.outcome["ranking"], seat.number)
            score = game.outcome.get("scores", {}).get(str(seat.number))
        name = names.get(game.ruleset, game.ruleset)
        if game.status == Game.Status.ACTIVE:
            stats["active"] += 1
        elif game.status == Game.Status.FINISHED:
            tally = per_game.setdefault(game.ruleset, {"name": name, "played": 0, "won": 0})
            stats["played"] += 1
            tally["played"] += 1
            if place == 1:
                stats["won"] += 1
                tally["won"] += 1
        rows.append(
            {
                "game": game,
                "place": place,
                "seat": seat,
                "score": score,
                "players": len(game.seats.all()),
                "ruleset_name": name,
            }
        )
    context = {
        "player": user,
        "ratings": ratings_for(user),
        "rows": rows,
        "stats": stats,
        "per_game": sorted(per_game.values(), key=lambda t: t["name"]),
    }
    return render(request, "players/profile.html", context)


class SignupApi(APIView):
    permission_classes = [permissions.AllowAny]
    authentication_classes: list = []

    @extend_schema(request=SignupSerializer, responses={201: dict})
    def post(self, request: Request) -> Response:
        serializer = SignupSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        try:
            user = get_user_model().objects.create_user(**serializer.validated_data)
        except IntegrityError as exc:
            raise Conflict("username_taken", "That username is taken.") from exc
        token, _ = Token.objects.get_or_create(user=user)
        return Response({"username": user.username, "token": token.key}, status=201)
