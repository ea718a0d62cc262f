"""Reports and the moderators' queue; hidden lines; what chat refuses."""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from community import services as community_services
from community.models import ChatMessage
from games.errors import ServiceError
from tests.games.helpers import humans_game

pytestmark = pytest.mark.django_db(transaction=True)


def test_reports_queue_until_resolved_or_dismissed(trio, mod):
    game = humans_game(trio[:2])
    line = community_services.chat_post(game_id=game.id, user=trio[0], body="you are bad")
    report = community_services.chat_report(message_id=line.pk, user=trio[1], reason="insult")
    again = community_services.chat_report(message_id=line.pk, user=trio[1], reason="again")
    assert again.pk == report.pk, "one open report per reporter and message"
    with pytest.raises(ServiceError) as err:
        community_services.chat_report(message_id=line.pk, user=trio[0])
    assert err.value.code == "own_message"
    client = APIClient()
    client.force_authenticate(mod)
    queue = client.get("/api/moderation/reports/").json()["reports"]
    assert [r["id"] for r in queue] == [report.pk]
    assert queue[0]["message"]["body"] == "you are bad"
    assert queue[0]["audit_url"] == f"/tables/{game.id}/audit/"
    response = client.post(
        f"/api/moderation/reports/{report.pk}/dismiss/", {"note": "banter"}, format="json"
    )
    assert response.json() == {"id": report.pk, "status": "dismissed"}
    assert client.get("/api/moderation/reports/").json()["reports"] == []
    closed = client.post(f"/api/moderation/reports/{report.pk}/resolve/")
    assert closed.status_code == 409 and closed.json()["code"] == "report_closed"


def test_a_hidden_message_leaves_the_history(trio, mod):
    game = humans_game(trio[:2])
    line = community_services.chat_post(game_id=game.id, user=trio[0], body="spoiler")
    community_services.chat_post(game_id=game.id, user=trio[1], body="ok")
    community_services.message_hide(message_id=line.pk, moderator=mod, reason="spoiler")
    history = APIClient().get(f"/api/tables/{game.id}/chat/").json()["messages"]
    assert [m["body"] for m in history] == ["ok"]
    assert ChatMessage.objects.get(pk=line.pk).hidden, "kept for the record"
    with pytest.raises(ServiceError):
        community_services.chat_report(message_id=line.pk, user=trio[1])


def test_chat_refuses_empty_long_and_flooding_messages(trio):
    game = humans_game(trio[:2])
    for body in ("", "   ", "x" * 501):
        with pytest.raises(ServiceError) as err:
            community_services.chat_post(game_id=game.id, user=trio[0], body=body)
        assert err.value.code == "bad_message"
    for n in range(5):
        community_services.chat_post(game_id=game.id, user=trio[0], body=f"line {n}")
    with pytest.raises(ServiceError) as err:
        community_services.chat_post(game_id=game.id, user=trio[0], body="one more")
    assert err.value.code == "slow_down" and err.value.status == 429
