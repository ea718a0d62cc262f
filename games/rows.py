"""Models from hand-written SQL: the hot reads (the write path's locking read, the game
stream's read of a head) are statements written once, not built by the ORM per call
(building one cost more CPU than running it). Each row still goes through every field's
converters and ``Model.from_db``, so the models come out as the ORM would make them.
"""

from __future__ import annotations

from typing import Any

from django.db import connection, models


class Columns:
    """Some (default: all concrete) fields of ``model`` read under the table alias
    ``alias``, at a position in a row."""

    def __init__(self, model: type[models.Model], alias: str, names: list[str] | None = None):
        self.model = model
        fields = model._meta.concrete_fields
        if names is not None:
            # In the model's order: ``Model.from_db`` reads a partial row that way.
            wanted = {model._meta.get_field(name) for name in names}
            fields = [f for f in fields if f in wanted]
        self.fields = list(fields)
        self.names = [f.attname for f in self.fields]
        quote = connection.ops.quote_name
        self.sql = [f"{alias}.{quote(f.column)}" for f in self.fields]
        self._converters = []  # (position, converters, column) of fields that need them
        for position, field in enumerate(self.fields):
            column = field.get_col(alias)
            found = connection.ops.get_db_converters(column) + field.get_db_converters(connection)
            if found:
                self._converters.append((position, found, column))

    def __len__(self) -> int:
        return len(self.fields)

    def make(self, row: tuple, start: int) -> Any:
        """The model instance from ``row[start:start + len(self)]``."""
        values = list(row[start : start + len(self.fields)])
        for position, functions, column in self._converters:
            value = values[position]
            for function in functions:
                value = function(value, column, connection)
            values[position] = value
        return self.model.from_db(connection.alias, self.names, values)
