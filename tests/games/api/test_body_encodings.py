"""Every body, in any charset and content type, gets a JSON 4xx when it is refused: a
JSON body in a charset other than UTF-8, a document nested too deep once decoded in its
charset, a form or multipart field that holds such a document."""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from tests.games.helpers import json_refusal

pytestmark = pytest.mark.django_db(transaction=True)

DEEP = "[" * 3000 + "]" * 3000


def assert_json_4xx(response) -> dict:
    assert 400 <= response.status_code < 500, (response.status_code, response.content[:200])
    body = json_refusal(response)
    return body


@pytest.mark.parametrize("charset", ["cp037", "utf-16", "latin-1"])
def test_a_deep_document_in_another_charset_is_refused_with_json(charset):
    body = ('{"username":' + DEEP + "}").encode(charset)
    response = APIClient().generic(
        "POST", "/api/auth/token/", body, content_type=f"application/json; charset={charset}"
    )
    assert_json_4xx(response)


def test_a_deep_command_in_ebcdic_is_refused_with_json(started):
    client, game_id = started
    body = ('{"command":' + DEEP + "}").encode("cp037")
    response = client.generic(
        "POST",
        f"/api/tables/{game_id}/commands/",
        body,
        content_type="application/json; charset=cp037",
    )
    assert_json_4xx(response)


def test_an_unknown_charset_is_refused_with_json():
    response = APIClient().generic(
        "POST",
        "/api/auth/token/",
        b'{"username": "a"}',
        content_type="application/json; charset=nope",
    )
    assert_json_4xx(response)


@pytest.mark.parametrize("format_", ["multipart", None])
def test_a_deep_json_field_in_a_form_is_refused_with_json(api, format_):
    client = api("ana")
    data = {"ruleset": "kingdoms", "seats": "2", "time_control": DEEP}
    if format_ is None:
        from urllib.parse import urlencode

        response = client.generic(
            "POST",
            "/api/tables/",
            urlencode(data),
            content_type="application/x-www-form-urlencoded",
        )
    else:
        response = client.post("/api/tables/", data, format=format_)
    assert_json_4xx(response)


def test_a_utf8_json_body_with_its_charset_named_is_read_as_ever(api):
    client = api("ana")
    response = client.generic(
        "POST",
        "/api/tables/",
        b'{"ruleset": "kingdoms", "seats": 2}',
        content_type="application/json; charset=UTF-8",
    )
    assert response.status_code == 201, response.content
