"""games.api.middleware.news_middleware: a REST move's news is published after the view,
on the request's own event loop under ASGI (no thread waiting for a hop to the loop and
back), and by the sync send under WSGI; a view that leaves none publishes nothing."""

from __future__ import annotations

import pytest
from asgiref.sync import sync_to_async
from channels.layers import get_channel_layer
from django.test import AsyncClient
from rest_framework.authtoken.models import Token

from games import publishing

pytestmark = pytest.mark.django_db(transaction=True)


def _legal(client, game_id: str) -> dict:
    return client.get(f"/api/tables/{game_id}/legal/").json()


async def test_under_asgi_the_move_is_published_on_the_requests_loop(started, monkeypatch):
    client, game_id = started
    legal = await sync_to_async(_legal)(client, game_id)
    key = (await sync_to_async(Token.objects.create)(user=client.user)).key

    sent_by_threads: list[publishing.Notice] = []  # (the bot's turn after it may use it)
    monkeypatch.setattr(publishing, "send", lambda notices: sent_by_threads.extend(notices))
    layer = get_channel_layer()
    listener = await layer.new_channel()
    await layer.group_add(publishing.game_group(game_id), listener)

    response = await AsyncClient().post(
        f"/api/tables/{game_id}/commands/",
        {"command": legal["commands"][0], "expected_seq": legal["seq"]},
        content_type="application/json",
        headers={"authorization": f"Token {key}"},
    )

    assert response.status_code == 201, response.content
    message = await layer.receive(listener)
    assert message["type"] == "game.advanced"
    assert message["head"] == response.json()["head_seq"]
    assert all(n.message.get("head") != message["head"] for n in sent_by_threads)


def test_under_wsgi_the_move_is_published_by_the_sync_send(started, monkeypatch):
    client, game_id = started
    legal = _legal(client, game_id)
    sent: list[publishing.Notice] = []
    monkeypatch.setattr(publishing, "send", lambda notices: sent.extend(notices))

    response = client.post(
        f"/api/tables/{game_id}/commands/",
        {"command": legal["commands"][0], "expected_seq": legal["seq"]},
        format="json",
    )

    assert response.status_code == 201
    head = response.json()["head_seq"]  # (the bot's turn after it is published too)
    assert [n.message["type"] for n in sent if n.message.get("head") == head] == ["game.advanced"]


def test_a_refused_move_publishes_nothing(started, monkeypatch):
    client, game_id = started
    legal = _legal(client, game_id)
    sent: list[publishing.Notice] = []
    monkeypatch.setattr(publishing, "send", lambda notices: sent.extend(notices))

    response = client.post(
        f"/api/tables/{game_id}/commands/",
        {"command": legal["commands"][0], "expected_seq": legal["seq"] + 5},
        format="json",
    )

    assert response.status_code == 409
    assert sent == []
