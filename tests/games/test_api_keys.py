"""``GET /api/keys/``: the public keys that sign checkpoints, for anyone, documented."""

from __future__ import annotations

import base64

import pytest

from games.storage import signing
from tests.conftest import TEST_SIGNING_KEY

pytestmark = pytest.mark.django_db


def test_the_signing_key_is_published_without_logging_in(client):
    response = client.get("/api/keys/")
    assert response.status_code == 200
    body = response.json()
    assert body["message_format"] == "kingdom-checkpoint/1"
    (key,) = body["keys"]
    public = signing.public_b64(signing.parse_private_key(TEST_SIGNING_KEY))
    assert key == {
        "key_id": signing.fingerprint(public),
        "algorithm": "ed25519",
        "public_key": public,
        "current": True,
    }
    assert len(base64.b64decode(key["public_key"])) == 32


def test_a_retired_key_is_published_as_not_current(client, settings):
    retired = signing.public_b64(signing.parse_private_key(base64.b64encode(b"r" * 32).decode()))
    settings.SIGNING_RETIRED_KEYS = [retired]
    keys = {k["public_key"]: k["current"] for k in client.get("/api/keys/").json()["keys"]}
    assert keys[retired] is False and list(keys.values()).count(True) == 1


def test_the_keys_endpoint_is_in_the_openapi_schema(client):
    schema = client.get("/api/schema/?format=json").json()
    operation = schema["paths"]["/api/keys/"]["get"]
    assert "checkpoints" in operation["summary"]
    assert operation["security"] == [{}]  # no authentication needed
    content = operation["responses"]["200"]["content"]["application/json"]["schema"]
    assert content["$ref"].endswith("/SigningKeys")
    assert {"key_id", "algorithm", "public_key"} <= set(
        schema["components"]["schemas"]["PublishedKey"]["properties"]
    )
