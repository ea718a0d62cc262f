"""DRF's serializers with fields that hold a JSON body to the types the schema names.

DRF reads ``{"seats": "3"}`` as 3 and ``{"reason": 0}`` as "0"; the OpenAPI schema says
integer and string, so a JSON body must carry exactly those (schemathesis's
negative_data_rejection check holds the API to it). A form body is all strings, so it is
read as DRF reads it; a form field that holds a JSON document (``time_control``) is held
to the same rules as a JSON body (``games.json_input``). ``games.api.serializers`` imports
this module as ``serializers``.
"""

from __future__ import annotations

from typing import Any

from django.http import QueryDict
from rest_framework.exceptions import ValidationError
from rest_framework.serializers import *  # noqa: F403  (the rest of DRF's serializers, as is)
from rest_framework.serializers import BooleanField as _BooleanField
from rest_framework.serializers import CharField as _CharField
from rest_framework.serializers import Field
from rest_framework.serializers import FloatField as _FloatField
from rest_framework.serializers import IntegerField as _IntegerField
from rest_framework.serializers import JSONField as _JSONField
from rest_framework.serializers import RegexField as _RegexField
from rest_framework.serializers import UUIDField as _UUIDField

from games import json_input


def _json_type_checked(field: Field, data: Any, json_types: tuple[type, ...]) -> None:
    if isinstance(getattr(field.root, "initial_data", None), QueryDict):
        return  # a form: every value is a string
    if isinstance(data, bool) and bool not in json_types or not isinstance(data, json_types):
        field.fail("invalid")


class CharField(_CharField):  # type: ignore[no-redef]  # replaces the star import's
    def to_internal_value(self, data: Any) -> str:
        _json_type_checked(self, data, (str,))
        return super().to_internal_value(data)


class RegexField(_RegexField):  # type: ignore[no-redef]  # replaces the star import's
    def to_internal_value(self, data: Any) -> str:
        _json_type_checked(self, data, (str,))
        return super().to_internal_value(data)


class IntegerField(_IntegerField):  # type: ignore[no-redef]  # replaces the star import's
    def to_internal_value(self, data: Any) -> int:
        _json_type_checked(self, data, (int,))
        return super().to_internal_value(data)


class FloatField(_FloatField):  # type: ignore[no-redef]  # replaces the star import's
    def to_internal_value(self, data: Any) -> float:
        _json_type_checked(self, data, (int, float))
        return super().to_internal_value(data)


class BooleanField(_BooleanField):  # type: ignore[no-redef]  # replaces the star import's
    def to_internal_value(self, data: Any) -> bool:
        _json_type_checked(self, data, (bool,))
        return super().to_internal_value(data)


class UUIDField(_UUIDField):  # type: ignore[no-redef]  # replaces the star import's
    def to_internal_value(self, data: Any) -> Any:
        _json_type_checked(self, data, (str,))
        return super().to_internal_value(data)


class JSONField(_JSONField):  # type: ignore[no-redef]  # replaces the star import's
    """A form field's JSON text is parsed here, past the API guard: a document nested
    deeper than the recursion limit (RecursionError) or than ``json_input`` allows is
    refused as the guard refuses it in a JSON body."""

    def to_internal_value(self, data: Any) -> Any:
        document: Any
        try:
            document = super().to_internal_value(data)
        except RecursionError:
            document = json_input.TOO_DEEP
        problem = json_input.problem(document)
        if problem is not None:
            raise ValidationError(problem.message, code=problem.code)
        return document
