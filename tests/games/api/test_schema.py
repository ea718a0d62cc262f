"""The OpenAPI schema types every answer of the games API (games/api/views.py): no 2xx
answer, nor any object inside one, is a bare ``object`` unless its shape belongs to a
ruleset (its options, its view, its events' data, its commands) and the schema says so."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest
from drf_spectacular.generators import SchemaGenerator

from games.api import urls

# Objects whose keys each ruleset decides: documented as open objects, with a word on
# where their shape is described.
RULESET_SHAPED = {"options", "applies_when", "view", "state", "data", "commands[]"}


@pytest.fixture(scope="module")
def schema() -> dict[str, Any]:
    return SchemaGenerator().get_schema(request=None, public=True)


def games_paths() -> list[str]:
    paths = []
    for pattern in urls.urlpatterns:
        view = getattr(pattern.callback, "view_class", None)
        # games' own views (views.py, clocks.py, keys.py); audit, community and players
        # type theirs in their own apps.
        if view is None or not view.__module__.startswith("games.api."):
            continue
        paths.append("/api/" + re.sub(r"<(?:\w+:)?(\w+)>", r"{\1}", str(pattern.pattern)))
    return paths


def untyped(node: Any, where: str, components: dict[str, Any], seen: frozenset) -> Iterator[str]:
    """Where in ``node`` an object has no declared properties (``where``: its field)."""
    if not isinstance(node, dict):
        return
    if "$ref" in node:
        name = node["$ref"].rsplit("/", 1)[-1]
        if name not in seen:
            yield from untyped(components[name], where, components, seen | {name})
        return
    for key in ("allOf", "oneOf", "anyOf"):
        for part in node.get(key, []):
            yield from untyped(part, where, components, seen)
    if node.get("type") == "array":
        yield from untyped(node.get("items"), f"{where}[]", components, seen)
    if node.get("type") == "object":
        values = node.get("additionalProperties")
        if not node.get("properties") and not (isinstance(values, dict) and values):
            yield where
        for name, field in node.get("properties", {}).items():
            yield from untyped(field, name, components, seen)
        if isinstance(values, dict):
            yield from untyped(values, f"{where}{{}}", components, seen)


def test_every_games_endpoint_is_in_the_schema(schema):
    paths = games_paths()
    assert "/api/tables/" in paths and "/api/tables/{game_id}/events/" in paths
    assert set(paths) <= set(schema["paths"])


@pytest.mark.parametrize("path", games_paths())
def test_every_2xx_answer_of_the_games_api_is_typed(schema, path):
    components = schema["components"]["schemas"]
    answers = [
        (f"{method.upper()} {code}", content["schema"])
        for method, operation in schema["paths"][path].items()
        for code, answer in operation["responses"].items()
        if code.startswith("2")
        for content in answer.get("content", {}).values()
    ]
    assert answers, f"{path} documents no 2xx body"
    for label, body in answers:
        top = list(untyped(body, "", components, frozenset()))
        assert "" not in top and "[]" not in top, f"{path} {label}: the answer is a bare object"
        loose = set(top) - RULESET_SHAPED
        assert not loose, f"{path} {label}: untyped objects at {sorted(loose)}"


def test_the_table_list_documents_its_pages(schema):
    operation = schema["paths"]["/api/tables/"]["get"]
    assert {"limit", "cursor"} <= {p["name"] for p in operation["parameters"]}
    page = operation["responses"]["200"]["content"]["application/json"]["schema"]
    name = page["$ref"].rsplit("/", 1)[-1]
    assert set(schema["components"]["schemas"][name]["properties"]) == {
        "next",
        "previous",
        "results",
    }
