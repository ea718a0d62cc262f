"""API accounts: sign-up checks passwords and look-alike names as the sign-up page does;
a token can be revoked, and a ban revokes it for good."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from community import services as community_services
from tests.games.helpers import make_moderator

pytestmark = pytest.mark.django_db


def signup(username: object, password: object = "pw-123456789"):
    return APIClient().post(
        "/api/auth/signup/", {"username": username, "password": password}, format="json"
    )


def token_client(token: str) -> APIClient:
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {token}")
    return client


def authenticates(token: str) -> bool:
    """The token may act: it can ask for a WebSocket ticket."""
    return token_client(token).post("/api/auth/ws-ticket/").status_code == 201


def test_signup_refuses_a_username_that_differs_only_in_case(make_user):
    make_user("ana")
    response = signup("ANA")
    assert response.status_code == 409
    assert response.json()["code"] == "username_taken"
    assert not get_user_model().objects.filter(username="ANA").exists()


@pytest.mark.parametrize(
    ("username", "password", "why"),
    [
        ("dora", "password123", "This password is too common."),
        ("dora", "80417395261", "This password is entirely numeric."),
        ("dragonfly", "dragonfly1", "The password is too similar to the username."),
        ("dora", "k7-x", "at least 8 characters."),
    ],
)
def test_signup_refuses_a_password_the_validators_refuse(username, password, why):
    response = signup(username, password)
    assert response.status_code == 400
    body = response.json()
    assert body["code"] == "invalid"
    assert any(why in message for message in body["fields"]["password"])
    assert not get_user_model().objects.filter(username=username).exists()


@pytest.mark.parametrize(
    ("username", "password", "field"),
    [(-25801, "pw-123456789", "username"), ("dora", 4.5e-146, "password")],
)
def test_signup_refuses_a_number_for_a_name_or_a_password(username, password, field):
    response = signup(username, password)
    assert response.status_code == 400
    assert field in response.json()["fields"]
    assert not get_user_model().objects.filter(username=str(username)).exists()


def test_signup_accepts_the_tests_usual_password():
    response = signup("ana", "pw-123456789")
    assert response.status_code == 201
    assert authenticates(response.json()["token"])


def test_signup_page_refuses_a_common_password(client):
    response = client.post(
        "/accounts/signup/",
        {"username": "bo", "password1": "password123", "password2": "password123"},
    )
    assert response.status_code == 200
    assert "This password is too common." in response.content.decode()
    assert not get_user_model().objects.filter(username="bo").exists()


def test_revoking_the_token_stops_it_and_a_new_one_can_be_obtained():
    old = signup("ana").json()["token"]
    assert token_client(old).post("/api/auth/token/revoke/").status_code == 204
    assert not authenticates(old)
    refused = token_client(old).post("/api/auth/token/revoke/")
    assert (refused.status_code, refused.json()["message"]) == (401, "Invalid token.")
    assert refused["WWW-Authenticate"] == "Token"
    again = APIClient().post("/api/auth/token/", {"username": "ana", "password": "pw-123456789"})
    assert again.status_code == 200
    new = again.json()["token"]
    assert new != old and authenticates(new)


def test_revoking_needs_a_logged_in_caller():
    response = APIClient().post("/api/auth/token/revoke/")
    assert response.status_code == 401
    assert response["WWW-Authenticate"] == "Token"
    assert response.json()["code"] == "not_authenticated"


def test_a_ban_revokes_the_token_and_lifting_it_does_not_bring_it_back(make_user):
    moderator = make_moderator(make_user("mo", staff=True))
    old = signup("ana").json()["token"]
    ana = get_user_model().objects.get(username="ana")
    community_services.account_ban(player=ana, moderator=moderator, reason="cheating")
    assert not Token.objects.filter(user=ana).exists()
    community_services.account_unban(player=ana, moderator=moderator, reason="appeal granted")
    assert not authenticates(old)
    new = APIClient().post("/api/auth/token/", {"username": "ana", "password": "pw-123456789"})
    assert new.status_code == 200
    assert new.json()["token"] != old and authenticates(new.json()["token"])
