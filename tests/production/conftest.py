"""Fixtures of the production-shape tests: the processes of deploy/Procfile on the real
PostgreSQL and a private Redis, and players who talk to them over HTTP and WebSocket."""

from __future__ import annotations

from dataclasses import dataclass

import pytest
from django.test import Client
from rest_framework.authtoken.models import Token

from tests.production.clients import Http
from tests.production.cluster import Cluster


@pytest.fixture(scope="session")
def production_cluster(django_db_setup, tmp_path_factory):
    cluster = Cluster(tmp_path_factory.mktemp("production"))
    try:
        cluster.start()
        yield cluster
    finally:
        cluster.stop()


@pytest.fixture
def cluster(production_cluster, settings):
    """The running cluster; whatever a test killed is started again after it."""
    # Session cookies made here must verify in the servers: the same key signs them.
    settings.SECRET_KEY = production_cluster.secret_key
    production_cluster.assert_running()
    yield production_cluster
    production_cluster.heal()


@dataclass
class Player:
    name: str
    user: object
    token: str
    cookie: str

    def http(self, base: str) -> Http:
        return Http(base, token=self.token)


@pytest.fixture
def player(cluster, make_user):
    """A new account with an API token and a logged-in browser session."""

    def make(name: str) -> Player:
        user = make_user(name)
        token = Token.objects.create(user=user).key
        browser = Client()
        browser.force_login(user)
        return Player(name, user, token, f"sessionid={browser.cookies['sessionid'].value}")

    return make
