"""The players HTML pages: sign-up, log-in, profiles and leaderboards. (The JSON API is
in ``players.api``.)

Pages read through ``players.selectors`` and only render what those answer.
"""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib.auth import login
from django.contrib.auth import views as auth_views
from django.contrib.auth.forms import UserCreationForm
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render

from games.errors import NotFound
from players import ratings, selectors, throttles

LEADERBOARD_TOP = 10  # per game on the page of all leaderboards
LEADERBOARD_PAGE = 200  # on one game's page


# ---- accounts ---------------------------------------------------------------------------
def _throttled(request: HttpRequest, scope: str, template: str, form: Any) -> HttpResponse | None:
    """The page again with a 429 and ``Retry-After`` when this address posted too often."""
    wait = throttles.wait_seconds(scope, request) if request.method == "POST" else None
    if wait is None:
        return None
    context = {"form": form, "throttled": f"Too many attempts: try again in {wait} seconds."}
    response = render(request, template, context, status=429)
    response["Retry-After"] = str(wait)
    return response


class SignupForm(UserCreationForm):
    """Django's, refusing a name that reads like a player's (as the API does)."""

    def clean_username(self) -> str:
        username = super().clean_username()
        if username and selectors.name_look_alike_taken(username):
            raise forms.ValidationError("That username is taken, or looks like one that is.")
        return username


def signup(request: HttpRequest) -> HttpResponse:
    form = SignupForm(request.POST or None)
    if refused := _throttled(request, "signup", "players/signup.html", SignupForm()):
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


# ---- profiles and leaderboards ----------------------------------------------------------
def profile(request: HttpRequest, username: str) -> HttpResponse:
    try:
        user = selectors.player_get(username)
    except NotFound as exc:
        raise Http404("no such player") from exc
    context = {**selectors.player_profile(user), "games": selectors.ruleset_names()}
    return render(request, "players/profile.html", context)


def leaderboards(request: HttpRequest) -> HttpResponse:
    """Every game's top ten, with a link to its full leaderboard."""
    bots = request.GET.get("bots") in {"1", "true"}
    boards = selectors.leaderboards(LEADERBOARD_TOP, bots)
    return render(request, "players/leaderboards.html", {"boards": boards, "bots": bots})


def leaderboard(request: HttpRequest, ruleset: str) -> HttpResponse:
    games = selectors.ruleset_names()
    if ruleset not in games:
        raise Http404("no such game")
    bots = request.GET.get("bots") in {"1", "true"}
    context = {
        "ruleset": ruleset,
        "ruleset_name": games[ruleset],
        "bots": bots,
        "players": selectors.leaderboard(ruleset, LEADERBOARD_PAGE, bots),
        "games": games,
        "k_factor": ratings.K_FACTOR,
    }
    return render(request, "players/leaderboard.html", context)
