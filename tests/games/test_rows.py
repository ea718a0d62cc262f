"""Models from hand-written SQL (games/rows.py)."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.db import connection

from games.rows import Columns

pytestmark = pytest.mark.django_db


def test_fields_named_out_of_the_models_order_read_each_into_its_own_field():
    user_model = get_user_model()
    user = user_model.objects.create_user("wren", is_staff=True)
    # Named in another order than the model's: Model.from_db reads a partial row in the
    # model's order, so the columns are selected in that order.
    columns = Columns(user_model, "u", ["is_staff", "username", "id"])
    assert columns.names == ["id", "username", "is_staff"]
    table = connection.ops.quote_name(user_model._meta.db_table)
    with connection.cursor() as cursor:
        cursor.execute(f"SELECT {', '.join(columns.sql)} FROM {table} u WHERE u.id = %s", [user.pk])
        made = columns.make(cursor.fetchone(), 0)
    assert (made.pk, made.username, made.is_staff) == (user.pk, "wren", True)
    assert made.get_deferred_fields() >= {"password", "email", "is_active"}
