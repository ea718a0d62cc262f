"""The per-address limits (login, sign-up) count the address the trusted proxy appended
to X-Forwarded-For, the right-most one, never what the client wrote in the header; with
NUM_PROXIES unset the header is ignored altogether."""

from __future__ import annotations

import itertools

import pytest
from django.conf import settings as loaded
from django.test import Client
from rest_framework.test import APIClient

from tests.deploy.conftest import DEPLOY, documents
from tests.kingdom.test_settings import PRODUCTION, SETUP, run_django

pytestmark = pytest.mark.django_db
INGRESS = "10.42.0.9"  # the ingress controller's pod: every request's REMOTE_ADDR
GUESSER = "203.0.113.5"
forged = (f"198.51.100.{n}" for n in itertools.count(1))


@pytest.fixture
def behind(settings):
    """``behind(proxies, login=..., signup=...)``: NUM_PROXIES and low rates."""

    def configure(proxies: int, **rates: str) -> None:
        config = settings.REST_FRAMEWORK
        limits = {**config["DEFAULT_THROTTLE_RATES"], **rates}
        settings.REST_FRAMEWORK = {
            **config,
            "NUM_PROXIES": proxies,
            "DEFAULT_THROTTLE_RATES": limits,
        }

    return configure


def through_ingress(client_address: str) -> dict[str, str]:
    """What the app sees: the client's own header, then the address the ingress saw."""
    return {"REMOTE_ADDR": INGRESS, "HTTP_X_FORWARDED_FOR": f"{next(forged)}, {client_address}"}


def guess_password(client_address: str) -> int:
    response = APIClient(**through_ingress(client_address)).post(
        "/api/auth/token/", {"username": "ana", "password": "guess-1234"}
    )
    return response.status_code


def test_login_limit_holds_against_a_rotating_x_forwarded_for(make_user, behind):
    make_user("ana")
    behind(1, login="3/min")
    assert [guess_password(GUESSER) for _ in range(8)] == [400] * 3 + [429] * 5
    # The login page shares the limit.
    page = Client(**through_ingress(GUESSER)).post(
        "/accounts/login/", {"username": "ana", "password": "guess-1234"}
    )
    assert page.status_code == 429
    # Another client behind the same ingress has its own count.
    assert guess_password("203.0.113.77") == 400


def sign_up(name: str, client_address: str) -> int:
    response = APIClient(**through_ingress(client_address)).post(
        "/api/auth/signup/", {"username": name, "password": "pw-123456789"}, format="json"
    )
    return response.status_code


def test_signup_limit_holds_against_a_rotating_x_forwarded_for(behind):
    behind(1, signup="10/hour")
    statuses = [sign_up(f"player{n}", GUESSER) for n in range(12)]
    assert statuses == [201] * 10 + [429] * 2
    form = {"username": "p13", "password1": "pw-long-enough-1", "password2": "pw-long-enough-1"}
    assert Client(**through_ingress(GUESSER)).post("/accounts/signup/", form).status_code == 429
    assert sign_up("elsewhere", "203.0.113.77") == 201


def test_with_num_proxies_unset_x_forwarded_for_is_ignored(make_user, behind):
    # The settings' own default, as a process without NUM_PROXIES loads it.
    assert loaded.REST_FRAMEWORK["NUM_PROXIES"] == 0
    make_user("ana")
    behind(loaded.REST_FRAMEWORK["NUM_PROXIES"], login="3/min")
    statuses = [
        APIClient(REMOTE_ADDR=GUESSER, HTTP_X_FORWARDED_FOR=next(forged))
        .post("/api/auth/token/", {"username": "ana", "password": "guess-1234"})
        .status_code
        for _ in range(5)
    ]
    assert statuses == [400] * 3 + [429] * 2


@pytest.mark.parametrize(("given", "loaded_as"), [(None, "0"), ("", "0"), ("1", "1")])
def test_num_proxies_comes_from_the_environment(given, loaded_as):
    env = {**PRODUCTION} if given is None else {**PRODUCTION, "NUM_PROXIES": given}
    done = run_django(SETUP + "print(settings.REST_FRAMEWORK['NUM_PROXIES'])", **env)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == loaded_as


def test_kubernetes_trusts_one_proxy_and_compose_none():
    (config,) = documents(DEPLOY / "k8s" / "base" / "configmap.yaml")
    assert config["data"]["NUM_PROXIES"] == "1"
    (compose,) = documents(DEPLOY / "docker-compose.yml")
    assert compose["x-app"]["environment"]["NUM_PROXIES"] == "${NUM_PROXIES:-0}"
    # uvicorn rewrites no client address from the header: Django alone decides.
    procfile = (DEPLOY / "Procfile").read_text()
    assert "--no-proxy-headers" in procfile.split("web: ", 1)[1].splitlines()[0]
