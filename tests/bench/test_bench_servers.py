"""The servers ``bench live`` starts (bench/servers.py): the database URL they
and the connection sampler are given."""

from __future__ import annotations

import pytest
from django.db import connection
from psycopg.conninfo import conninfo_to_dict

from bench import servers
from tests.conftest import needs_postgres

pytestmark = [needs_postgres, pytest.mark.django_db]


def test_the_database_url_names_this_process_database():
    parts = conninfo_to_dict(servers.database_url())
    db = connection.settings_dict
    assert parts["dbname"] == db["NAME"]
    assert parts["host"] == (db["HOST"] or "127.0.0.1")


def test_a_unix_socket_directory_stays_the_host(monkeypatch):
    # DATABASE_URL=postgres://postgres@%2Fvar%2Frun%2Fpostgresql/kingdom: PostgreSQL on
    # this host through its socket, which costs less CPU per round trip than loopback TCP.
    monkeypatch.setitem(connection.settings_dict, "HOST", "/var/run/postgresql")
    parts = conninfo_to_dict(servers.database_url())
    assert parts["host"] == "/var/run/postgresql"
    assert parts["port"] == str(connection.settings_dict["PORT"] or 5432)
    assert parts["dbname"] == connection.settings_dict["NAME"]
