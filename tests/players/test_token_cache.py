"""API tokens looked up in the cache (players/authentication.py): a request with a token
already seen costs no query for it, and a revoke, a ban or an account's change is heard
by the next request."""

from __future__ import annotations

import pytest
from django.core.cache import cache
from django.db import connection
from django.test.utils import CaptureQueriesContext
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from players import services

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def empty_cache():
    cache.clear()
    yield
    cache.clear()


def client_with_token(user) -> tuple[APIClient, str]:
    key = Token.objects.get_or_create(user=user)[0].key
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {key}")
    return client, key


def token_queries(client: APIClient) -> tuple[int, int]:
    with CaptureQueriesContext(connection) as queries:
        status = client.post("/api/auth/ws-ticket/").status_code
    return status, sum("authtoken_token" in q["sql"] for q in queries.captured_queries)


def test_a_token_already_seen_is_not_looked_up_again(make_user):
    client, _ = client_with_token(make_user("ana"))
    first = token_queries(client)
    again = token_queries(client)
    assert first[1] == 1 and again == (first[0], 0)


def test_a_revoked_token_fails_at_the_next_request(make_user):
    user = make_user("ana")
    client, _ = client_with_token(user)
    assert client.get("/api/tables/").status_code == 200
    token_queries(client)  # cached now
    services.token_revoke(user=user)
    assert client.post("/api/auth/ws-ticket/").status_code in (401, 403)


def test_a_deactivated_account_fails_at_the_next_request(make_user):
    user = make_user("ana")
    client, _ = client_with_token(user)
    token_queries(client)  # cached now
    user.is_active = False
    user.save()
    answer = client.post("/api/auth/ws-ticket/")
    assert answer.status_code in (401, 403)
    assert answer.json()["code"] in ("authentication_failed", "not_authenticated")
