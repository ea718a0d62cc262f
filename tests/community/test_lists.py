"""The moderators' lists page: a fixed number of queries whatever their length, and
nothing past the old caps (200 reports, 500 records) out of reach."""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from community.models import ChatMessage, ModerationRecord, Report
from tests.games.helpers import humans_game, make_moderator

pytestmark = pytest.mark.django_db


@pytest.fixture
def people(make_user):
    ana, bob = make_user("ana"), make_user("bob")
    return ana, bob, make_moderator(make_user("mod"))


@pytest.fixture
def moderator_client(people):
    client = APIClient()
    client.force_authenticate(people[2])
    return client


def _reports(n: int, people) -> list[Report]:
    """``n`` open reports by bob, each of its own line of ana's (one open report per
    reporter and message)."""
    ana, bob, _mod = people
    game = humans_game([ana, bob])
    lines = ChatMessage.objects.bulk_create(
        ChatMessage(game=game, author=ana, body=f"line {i}") for i in range(n)
    )
    return Report.objects.bulk_create(
        Report(message=line, reporter=bob, reason="rude") for line in lines
    )


def _records(n: int, people) -> list[ModerationRecord]:
    ana, _bob, mod = people
    return ModerationRecord.objects.bulk_create(
        ModerationRecord(
            action=ModerationRecord.Action.MUTE,
            moderator=mod,
            moderator_name=mod.username,
            reason=f"record {i}",
            target_user=ana,
        )
        for i in range(n)
    )


# ---- a fixed number of queries ----------------------------------------------------------
# session-less forced login: the moderator's permissions (2), the count, the page
@pytest.mark.parametrize("size", [3, 60])
def test_the_queue_costs_the_same_queries_at_any_length(
    size, people, moderator_client, django_assert_num_queries
):
    _reports(size, people)
    with django_assert_num_queries(4):
        answer = moderator_client.get("/api/moderation/reports/")
    assert answer.status_code == 200
    assert answer.json()["count"] == size and len(answer.json()["reports"]) == size


@pytest.mark.parametrize("size", [3, 60])
def test_the_record_costs_the_same_queries_at_any_length(
    size, people, moderator_client, django_assert_num_queries
):
    _records(size, people)
    with django_assert_num_queries(4):
        answer = moderator_client.get("/api/moderation/records/", {"username": "ana"})
    assert answer.status_code == 200
    assert answer.json()["count"] == size and len(answer.json()["records"]) == size


# ---- past the old caps ------------------------------------------------------------------
def test_the_201st_report_is_on_the_next_page(people, moderator_client):
    reports = _reports(201, people)
    first = moderator_client.get("/api/moderation/reports/").json()
    assert first["count"] == 201 and first["previous"] is None
    assert [r["id"] for r in first["reports"]] == [r.pk for r in reports[:200]]
    second = moderator_client.get(first["next"]).json()
    assert [r["id"] for r in second["reports"]] == [reports[200].pk]
    assert second["next"] is None and second["previous"] is not None


def test_the_501st_record_is_on_the_next_page(people, moderator_client):
    records = _records(501, people)
    first = moderator_client.get("/api/moderation/records/").json()
    assert first["count"] == 501
    newest_first = [r.pk for r in reversed(records)]
    assert [r["id"] for r in first["records"]] == newest_first[:500]
    second = moderator_client.get(first["next"]).json()
    assert [r["id"] for r in second["records"]] == [records[0].pk]
    assert second["next"] is None


def test_a_page_is_chosen_by_limit_and_offset_and_a_bad_one_refused(people, moderator_client):
    reports = _reports(5, people)
    page = moderator_client.get("/api/moderation/reports/", {"limit": 2, "offset": 2}).json()
    assert [r["id"] for r in page["reports"]] == [r.pk for r in reports[2:4]]
    clamped = moderator_client.get("/api/moderation/records/", {"limit": 0, "offset": -3})
    assert clamped.status_code == 200
    refused = moderator_client.get("/api/moderation/reports/", {"limit": "ten"})
    assert refused.status_code == 400 and refused.json()["code"] == "invalid"
