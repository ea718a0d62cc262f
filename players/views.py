"""Sign-up (page and API), API tokens and player profiles."""

from __future__ import annotations

from typing import Any

from django.contrib.auth import get_user_model, login
from django.contrib.auth import views as auth_views
from django.contrib.auth.forms import UserCreationForm
from django.contrib.auth.password_validation import validate_password
from django.core.exceptions import ValidationError as DjangoValidationError
from django.db import IntegrityError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from drf_spectacular.utils import extend_schema
from rest_framework import permissions, serializers
from rest_framework.authtoken.models import Token
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from games.api import responses as answers
from games.api.responses import errors
from games.api.serializers import SignupSerializer
from games.errors import Conflict
from games.models import Game
from games.rules import all_rulesets
from players import throttles
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


def _throttled(request: HttpRequest, scope: str, template: str, form: Any) -> HttpResponse | None:
    """The page again with a 429 and ``Retry-After`` when this address posted too often."""
    wait = throttles.wait_seconds(scope, request) if request.method == "POST" else None
    if wait is None:
        return None
    context = {"form": form, "throttled": f"Too many attempts: try again in {wait} seconds."}
    response = render(request, template, context, status=429)
    response["Retry-After"] = str(wait)
    return response


def signup(request: HttpRequest) -> HttpResponse:
    form = UserCreationForm(request.POST or None)
    if refused := _throttled(request, "signup", "players/signup.html", UserCreationForm()):
        return refused
    if request.method == "POST" and form.is_valid():
        user = form.save()
        login(request, user)
        return redirect("lobby")
    return render(request, "players/signup.html", {"form": form})


class LoginView(auth_views.LoginView):
    template_name = "players/login.html"

    def post(self, request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        if refused := _throttled(request, "login", self.template_name, self.get_form_class()()):
            return refused
        return super().post(request, *args, **kwargs)


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
    throttle_scope = "signup"

    @extend_schema(
        request=SignupSerializer,
        responses={201: answers.SIGNED_UP, **errors(400, 409, 413, 415, 429)},
    )
    def post(self, request: Request) -> Response:
        serializer = SignupSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        username, password = (serializer.validated_data[k] for k in ("username", "password"))
        users = get_user_model()
        # As the sign-up page: "Ana" beside "ana" would be a look-alike of another player.
        if users.objects.filter(username__iexact=username).exists():
            raise Conflict("username_taken", "That username is taken.")
        try:
            validate_password(password, users(username=username))
        except DjangoValidationError as exc:
            raise serializers.ValidationError({"password": exc.messages}) from exc
        try:
            user = users.objects.create_user(username=username, password=password)
        except IntegrityError as exc:
            raise Conflict("username_taken", "That username is taken.") from exc
        token, _ = Token.objects.get_or_create(user=user)
        return Response({"username": user.username, "token": token.key}, status=201)
