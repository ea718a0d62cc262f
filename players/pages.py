"""The players HTML pages: sign-up, log-in, profiles and leaderboards. (The JSON API is
in ``players.api``.)

Pages read through ``players.selectors`` and only render what those answer.
"""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib.auth import forms as auth_forms
from django.contrib.auth import login
from django.contrib.auth import views as auth_views
from django.contrib.auth.decorators import login_required
from django.contrib.auth.forms import UserCreationForm
from django.core.exceptions import NON_FIELD_ERRORS
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_http_methods

from games.api.signed_in import signed_in_user
from games.errors import NotFound, ServiceError
from players import mail, ratings, selectors, throttles

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
    """Django's, refusing a name that reads like a player's (as the API does), with an
    optional email address (verified by a link mailed to it)."""

    email = forms.EmailField(required=False, label="Email (optional)")

    class Meta(UserCreationForm.Meta):
        fields = ("username", "email")

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
        if user.email:
            mail.verification_send(user=user, site=request.build_absolute_uri("/"))
        login(request, user)
        return redirect("lobby")
    return render(request, "players/signup.html", {"form": form})


BOT_ACCOUNT_REFUSED = (
    "Bot accounts play through the API with their token, not on the web: see "
    "docs/bot-api.md (the API's reference is at /api/docs/)."
)


class LoginForm(auth_forms.AuthenticationForm):
    """Django's, refusing a bot account (whose password is right): it plays through the
    API only (docs/bot-api.md)."""

    def confirm_login_allowed(self, user: Any) -> None:
        super().confirm_login_allowed(user)
        if selectors.is_bot(user):
            raise forms.ValidationError(BOT_ACCOUNT_REFUSED, code="bot_account")

    @property
    def bot_account_refused(self) -> bool:
        """Whether the refusal is that of a bot account (the page says so, not "didn't
        match")."""
        return self.has_error(NON_FIELD_ERRORS, "bot_account")


class LoginView(auth_views.LoginView):
    template_name = "players/login.html"
    authentication_form = LoginForm

    def post(self, request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        if refused := _throttled(request, "login", self.template_name, self.get_form_class()()):
            return refused
        return super().post(request, *args, **kwargs)


class PasswordResetForm(auth_forms.PasswordResetForm):
    """Django's, mailing only verified addresses: an address someone typed without
    proving it is theirs must not let its owner take over the account."""

    def get_users(self, email: str) -> Any:
        return [u for u in super().get_users(email) if mail.verified_address(u) == u.email]


class PasswordResetView(auth_views.PasswordResetView):
    template_name = "players/password_reset.html"
    email_template_name = "players/mail/password_reset.txt"
    subject_template_name = "players/mail/password_reset_subject.txt"
    form_class = PasswordResetForm

    def post(self, request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        if refused := _throttled(request, "login", self.template_name, self.form_class()):
            return refused
        return super().post(request, *args, **kwargs)


class AccountMailForm(forms.Form):
    email = forms.EmailField(required=False, label="Email address")
    turn_emails = forms.BooleanField(
        required=False, label="Email me when it is my turn at a table with hours per move"
    )


@login_required
def account(request: HttpRequest) -> HttpResponse:
    """The player's own settings: the email address and the "your turn" emails."""
    user = signed_in_user(request)  # (login_required let only an account in)
    settings_ = mail.settings_of(user)
    initial = {"email": user.email, "turn_emails": settings_.turn_emails}
    form = AccountMailForm(request.POST or None, initial=initial)
    notice = ""
    if request.method == "POST" and form.is_valid():
        site = request.build_absolute_uri("/")
        if "resend" in request.POST and user.email:
            sent = mail.verification_send(user=user, site=site)
            notice = (
                f"A new link is on its way to {user.email}."
                if sent
                else "The mail could not be sent just now; try again later."
            )
        else:
            email = form.cleaned_data["email"]
            changed = email != user.email
            mail.address_set(user=user, email=email, site=site)
            mail.turn_emails_set(user=user, on=form.cleaned_data["turn_emails"])
            notice = (
                f"Saved. Open the link we mailed to {email} to confirm it."
                if changed and email
                else "Saved."
            )
    context = {"form": form, "verified": bool(mail.verified_address(user)), "notice": notice}
    return render(request, "players/account.html", context)


def email_verify(request: HttpRequest, token: str) -> HttpResponse:
    try:
        user = mail.address_verify(token=token)
    except ServiceError as exc:
        return render(request, "players/link.html", {"problem": exc.message}, status=400)
    return render(request, "players/link.html", {"done": f"{user.email} is confirmed."})


@require_http_methods(["GET", "POST"])
def turn_emails_off(request: HttpRequest, token: str) -> HttpResponse:
    """The unsubscribe link of a "your turn" email: no login needed (the link is signed);
    a GET asks, the POST turns them off (a mail scanner opening links changes nothing)."""
    if request.method == "GET":
        return render(request, "players/unsubscribe.html", {"token": token})
    try:
        mail.turn_emails_off(token=token)
    except ServiceError as exc:
        return render(request, "players/link.html", {"problem": exc.message}, status=400)
    done = 'You will get no more "your turn" emails. Turn them on again in your account.'
    return render(request, "players/link.html", {"done": done})


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
