"""A move's body: the plain path (``command_body``) gives exactly what
``CommandSerializer`` validates, and leaves every other body to the serializer."""

from __future__ import annotations

import uuid

import pytest
from django.http import QueryDict
from hypothesis import given, settings
from hypothesis import strategies as st
from rest_framework.exceptions import ValidationError

from games.api.serializers import CommandSerializer, command_body, valid_command

json_scalars = st.one_of(
    st.none(), st.booleans(), st.integers(-5, 10**20), st.floats(allow_nan=False), st.text()
)
json_values = st.recursive(
    json_scalars,
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(), inner, max_size=3),
    max_leaves=6,
)
command_ids = st.one_of(
    json_values,
    st.uuids().map(str),
    st.uuids().map(lambda u: u.hex),
    st.uuids().map(lambda u: f"urn:uuid:{u}"),
    st.uuids().map(lambda u: "{" + str(u) + "}"),
)
bodies = st.fixed_dictionaries(
    {},
    optional={
        "command": st.one_of(st.dictionaries(st.text(), json_values, max_size=3), json_values),
        "command_id": command_ids,
        "expected_seq": st.one_of(st.integers(-3, 10**12), json_values),
        "other": json_values,
    },
)


@settings(max_examples=400, deadline=None)
@given(bodies)
def test_the_plain_path_validates_as_the_serializer_does(body):
    plain = command_body(body)
    serializer = CommandSerializer(data=body)
    if plain is not None:
        assert serializer.is_valid(), serializer.errors
        assert plain == dict(serializer.validated_data)


def test_a_well_formed_move_takes_the_plain_path():
    command_id = uuid.uuid4()
    body = {"command": {"type": "pass"}, "command_id": str(command_id), "expected_seq": 4}
    assert command_body(body) == {**body, "command_id": command_id}
    assert command_body({"command": {"type": "pass"}}) == {"command": {"type": "pass"}}
    assert command_body({"command": {}, "command_id": None, "expected_seq": None}) is not None


def test_what_is_not_plainly_well_formed_is_left_to_the_serializer():
    form = QueryDict("command_id=x", mutable=True)
    for body in (
        form,
        {"command": "pass"},
        {"command": {}, "expected_seq": True},
        {"command": {}, "expected_seq": -1},
        {"command": {}, "command_id": "not-a-uuid"},
        {"command": {}, "command_id": 7},
        [],
    ):
        assert command_body(body) is None


def test_a_bad_body_still_gets_the_serializers_error():
    with pytest.raises(ValidationError) as refused:
        valid_command({"command": {}, "expected_seq": -1})
    assert "expected_seq" in refused.value.detail
