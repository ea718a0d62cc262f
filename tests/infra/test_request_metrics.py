"""What /metrics tells an operator beyond the game: HTTP requests by route and status
with their latency and 5xx, the Celery queues read from Redis at scrape time, and how
long bot turns wait for a worker."""

from __future__ import annotations

import re
import time
import uuid

import pytest
from django.http import HttpResponse
from django.urls import path
from prometheus_client import REGISTRY
from prometheus_client.parser import text_string_to_metric_families

from bots import tasks
from infra import metrics
from kingdom.celery import app
from tests.conftest import needs_redis

pytestmark = pytest.mark.django_db


def sample(name: str, **labels: str) -> float:
    return REGISTRY.get_sample_value(name, labels) or 0.0


def scraped(client) -> dict[str, list]:
    response = client.get("/metrics")
    assert response.status_code == 200
    return {
        family.name: family.samples
        for family in text_string_to_metric_families(response.content.decode())
    }


TABLE = "api/tables/<uuid:game_id>/"


def test_requests_are_counted_by_route_and_status_never_by_path(client):
    before = sample("kingdom_http_requests_total", method="GET", route=TABLE, status="404")
    timed = sample("kingdom_http_request_seconds_count", method="GET", route=TABLE)
    for _ in range(3):
        assert client.get(f"/api/tables/{uuid.uuid4()}/").status_code == 404
    after = sample("kingdom_http_requests_total", method="GET", route=TABLE, status="404")
    assert after - before == 3
    assert sample("kingdom_http_request_seconds_count", method="GET", route=TABLE) - timed == 3
    client.get("/no-such-page/")
    assert sample("kingdom_http_requests_total", method="GET", route="unmatched", status="404")
    # No label carries a game id or a guessed URL.
    routes = {s.labels.get("route") for s in scraped(client)["kingdom_http_requests"]}
    assert not [r for r in routes if re.search(r"[0-9a-f]{8}-|no-such", r)]


def fails(request):
    raise RuntimeError("a bug")


def answers(request):
    return HttpResponse("ok")


urlpatterns = [path("boom/<int:n>/", fails), path("fine/", answers, name="fine")]


@pytest.mark.urls(__name__)
def test_a_server_error_is_counted_by_route(client):
    client.raise_request_exception = False
    before = sample("kingdom_http_server_errors_total", route="boom/<int:n>/")
    assert client.get("/boom/1/").status_code == 500
    assert client.get("/boom/2/").status_code == 500
    assert client.get("/fine/").status_code == 200
    assert sample("kingdom_http_server_errors_total", route="boom/<int:n>/") - before == 2
    assert sample("kingdom_http_server_errors_total", route="fine/") == 0
    assert sample("kingdom_http_requests_total", method="GET", route="fine/", status="200") >= 1


def test_a_broker_that_does_not_answer_leaves_the_scrape_working(client, settings):
    settings.CELERY_BROKER_URL = "redis://127.0.0.1:1/0"  # nothing listens: refused
    families = scraped(client)
    assert [s.value for s in families["kingdom_queue_broker_up"]] == [0]
    assert "kingdom_queue_depth" not in families
    assert "kingdom_commands" in families  # the rest of the scrape stands


def test_without_a_redis_broker_no_queue_is_reported(client, settings):
    settings.CELERY_BROKER_URL = "memory://"
    families = scraped(client)
    assert "kingdom_queue_broker_up" not in families and "kingdom_queue_depth" not in families


@needs_redis
def test_queue_depth_and_the_oldest_wait_are_read_from_redis_at_scrape_time(client, settings):
    import os

    import redis

    settings.CELERY_BROKER_URL = os.environ["REDIS_URL"]
    settings.BOT_QUEUE = f"bots-metrics-{uuid.uuid4().hex[:12]}"
    settings.CLOCK_QUEUE = f"clocks-metrics-{uuid.uuid4().hex[:12]}"
    try:
        with app.connection_for_write(os.environ["REDIS_URL"]) as connection:
            for seq in range(3):
                tasks.take_turn.apply_async(
                    args=("g", seq, 1),
                    connection=connection,
                    queue=settings.BOT_QUEUE,
                    headers={metrics.PUBLISHED_HEADER: time.time() - 30 + seq},
                )
        families = scraped(client)
        depth = {s.labels["queue"]: s.value for s in families["kingdom_queue_depth"]}
        assert depth == {settings.BOT_QUEUE: 3, settings.CLOCK_QUEUE: 0}
        oldest = {s.labels["queue"]: s.value for s in families["kingdom_queue_oldest_seconds"]}
        assert 30 <= oldest[settings.BOT_QUEUE] < 60
        assert oldest[settings.CLOCK_QUEUE] == 0
        assert [s.value for s in families["kingdom_queue_broker_up"]] == [1]
    finally:
        redis.Redis.from_url(os.environ["REDIS_URL"]).delete(settings.BOT_QUEUE)


def test_a_bot_turn_s_wait_for_a_worker_is_observed():
    with app.connection_for_write("memory://") as connection:
        tasks.take_turn.apply_async(args=("g", 1, 2), connection=connection, queue="lag-test")
        message = connection.SimpleQueue("lag-test").get(timeout=5)
    published = message.headers[metrics.PUBLISHED_HEADER]
    message.ack()
    assert abs(published - time.time()) < 60

    class Request:  # the worker's request of that task, three seconds later
        headers = {metrics.PUBLISHED_HEADER: time.time() - 3}

    class Task:
        name = "bots.tasks.take_turn"
        request = Request()

    count = sample("kingdom_bot_turn_lag_seconds_count")
    total = sample("kingdom_bot_turn_lag_seconds_sum")
    metrics.observe_turn_lag(task=Task())
    assert sample("kingdom_bot_turn_lag_seconds_count") == count + 1
    assert sample("kingdom_bot_turn_lag_seconds_sum") - total >= 3
