"""API tokens (players/authentication.py): one statement reads the token and the user
fields a request needs; every other field still reads as the model's, loaded on use."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from rest_framework import exceptions
from rest_framework.authtoken.models import Token

from players.authentication import USER_FIELDS, TokenAuthentication, token_with_user

pytestmark = pytest.mark.django_db


def test_the_token_comes_with_the_fields_a_request_reads():
    user = get_user_model().objects.create_user("tess", email="tess@example.org", is_staff=True)
    key = Token.objects.create(user=user).key
    token = token_with_user(key)
    assert token.key == key and token.user_id == user.pk
    loaded = {name: getattr(token.user, name) for name in USER_FIELDS}
    assert loaded == {
        "id": user.pk,
        "username": "tess",
        "is_active": True,
        "is_staff": True,
        "is_superuser": False,
    }
    assert {"password", "email", "date_joined", "last_login"} <= token.user.get_deferred_fields()


def test_an_unread_field_loads_on_use_with_its_stored_value(django_assert_num_queries):
    user = get_user_model().objects.create_user("ulla", email="ulla@example.org")
    token = token_with_user(Token.objects.create(user=user).key)
    with django_assert_num_queries(1):
        assert token.user.email == "ulla@example.org"
    assert token.user.date_joined == user.date_joined


def test_an_unknown_key_finds_nothing():
    assert token_with_user("0" * 40) is None
    with pytest.raises(exceptions.AuthenticationFailed, match="Invalid token"):
        TokenAuthentication().authenticate_credentials("0" * 40)


def test_a_deactivated_players_token_is_refused():
    user = get_user_model().objects.create_user("vic")
    key = Token.objects.create(user=user).key
    assert TokenAuthentication().authenticate_credentials(key)[0].pk == user.pk
    user.is_active = False
    user.save(update_fields=["is_active"])
    with pytest.raises(exceptions.AuthenticationFailed, match="inactive"):
        TokenAuthentication().authenticate_credentials(key)
