"""What the API's views share: a request body validated by its serializer, and the
table's detail as the answer to an action on it."""

from __future__ import annotations

from typing import Any

from rest_framework.request import Request
from rest_framework.response import Response

from games import selectors


def valid(serializer_class: type, data: Any) -> dict[str, Any]:
    """The validated body, or DRF's ValidationError (a JSON 400 ``invalid``)."""
    serializer = serializer_class(data=data)
    serializer.is_valid(raise_exception=True)
    return serializer.validated_data


def table_detail(request: Request, game_id: str, status: int = 200) -> Response:
    """The table as ``request.user`` sees it after an action."""
    game = selectors.get_game(game_id)
    return Response(selectors.table_detail(game, request.user), status=status)
