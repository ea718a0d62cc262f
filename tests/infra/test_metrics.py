"""Prometheus metrics: what the write path, bots, sockets, sweeps and audits count, and
who may scrape /metrics."""

from __future__ import annotations

from datetime import timedelta

import pytest
from channels.testing import WebsocketCommunicator
from django.utils import timezone
from prometheus_client import REGISTRY

from audit.stored import audit_game
from bots import tasks
from games import services
from games.errors import ServiceError
from games.models import Game, Snapshot
from kingdom.asgi import application
from tests.games.helpers import game_with_bots, humans_game, play_out
from tests.games.tampering import triggers_disabled


def sample(name: str, **labels: str) -> float:
    return REGISTRY.get_sample_value(name, labels) or 0.0


@pytest.fixture
def players(make_user):
    return [make_user("ana"), make_user("ben")]


def test_metrics_are_served_to_loopback_and_refused_elsewhere(client, settings):
    settings.METRICS_TOKEN = ""
    response = client.get("/metrics")  # the test client's REMOTE_ADDR is 127.0.0.1
    assert response.status_code == 200
    assert b"kingdom_commands_total" in response.content
    assert b"kingdom_open_sockets" in response.content
    refused = client.get("/metrics", REMOTE_ADDR="203.0.113.9")
    assert refused.status_code == 403
    assert refused.json()["code"] == "forbidden"


def test_metrics_allow_a_cluster_network_when_configured(client, settings):
    settings.METRICS_TOKEN = ""
    settings.METRICS_ALLOWED_NETWORKS = ["10.0.0.0/8"]
    assert client.get("/metrics", REMOTE_ADDR="10.42.0.7").status_code == 200
    assert client.get("/metrics", REMOTE_ADDR="127.0.0.1").status_code == 403


def test_metrics_token_is_required_from_every_address_when_set(client, settings):
    settings.METRICS_TOKEN = "scrape-me"
    assert client.get("/metrics").status_code == 403
    wrong = client.get("/metrics", HTTP_AUTHORIZATION="Bearer nope")
    assert wrong.status_code == 403
    right = client.get("/metrics", HTTP_AUTHORIZATION="Bearer scrape-me", REMOTE_ADDR="1.2.3.4")
    assert right.status_code == 200


@pytest.mark.django_db
def test_commands_are_counted_accepted_and_refused_by_code_and_timed(players):
    game = humans_game(players)
    accepted = sample("kingdom_commands_total", outcome="accepted", code="")
    refused = sample("kingdom_commands_total", outcome="refused", code="stale_seq")
    timed = sample("kingdom_move_seconds_count")
    with pytest.raises(ServiceError):
        services.game_submit(
            game_id=game.id, user=players[0], command={"type": "pass"}, expected_seq=0
        )
    assert sample("kingdom_commands_total", outcome="refused", code="stale_seq") == refused + 1
    services.game_resign(game_id=game.id, user=players[1])  # not through game_submit
    assert sample("kingdom_commands_total", outcome="accepted", code="") == accepted
    assert sample("kingdom_move_seconds_count") == timed


@pytest.mark.django_db(transaction=True)  # bots are scheduled after commit
def test_an_accepted_move_is_counted_and_timed(make_user):
    user = make_user()
    game = game_with_bots(user, bots=1, level="easy")
    services.game_start(game_id=game.id, user=user)  # the bot plays inline
    accepted = sample("kingdom_commands_total", outcome="accepted", code="")
    timed = sample("kingdom_move_seconds_count")
    bot_turns = sample("kingdom_bot_turn_seconds_count", level="easy")
    play_out(Game.objects.get(pk=game.id), [user], moves=1)
    assert sample("kingdom_commands_total", outcome="accepted", code="") > accepted
    assert sample("kingdom_move_seconds_count") > timed
    # The easy bot answered the move inline: its turn is timed under its level.
    assert sample("kingdom_bot_turn_seconds_count", level="easy") > bot_turns


@pytest.mark.django_db(transaction=True)
async def test_open_sockets_gauge_follows_accept_and_disconnect():
    before = sample("kingdom_open_sockets", route="lobby")
    communicator = WebsocketCommunicator(
        application,
        "/ws/lobby/",
        headers=[(b"host", b"localhost"), (b"origin", b"http://localhost")],
    )
    connected, _ = await communicator.connect()
    assert connected
    assert sample("kingdom_open_sockets", route="lobby") == before + 1
    await communicator.disconnect()
    assert sample("kingdom_open_sockets", route="lobby") == before


@pytest.mark.django_db
def test_a_refused_socket_is_never_counted(make_user):
    from asgiref.sync import async_to_sync

    before = sample("kingdom_open_sockets", route="other")

    async def knock() -> bool:
        communicator = WebsocketCommunicator(
            application, "/ws/nowhere/", headers=[(b"host", b"localhost")]
        )
        try:
            connected, _ = await communicator.connect()
        except ValueError:  # no route: the router raises before any accept
            connected = False
        return connected

    assert async_to_sync(knock)() is False
    assert sample("kingdom_open_sockets", route="other") == before


@pytest.mark.django_db
def test_the_sweep_records_how_late_the_oldest_run_out_clock_is(make_user):
    user = make_user()
    game = game_with_bots(user, bots=1)
    Game.objects.filter(pk=game.id).update(
        status=Game.Status.ACTIVE, clock_deadline=timezone.now() - timedelta(seconds=7)
    )
    count = sample("kingdom_clock_sweep_lag_seconds_count")
    total = sample("kingdom_clock_sweep_lag_seconds_sum")
    tasks.observe_sweep_lag()
    assert sample("kingdom_clock_sweep_lag_seconds_count") == count + 1
    assert sample("kingdom_clock_sweep_lag_seconds_sum") - total >= 7


# transaction=True: switching a trigger off needs no pending trigger events (PostgreSQL).
@pytest.mark.django_db(transaction=True)
def test_a_failed_audit_is_counted_and_a_passed_one_is_not(players):
    game = humans_game(players)
    services.game_resign(game_id=game.id, user=players[1])
    game.refresh_from_db()
    failures = sample("kingdom_audit_failures_total")
    assert audit_game(game).passed
    assert sample("kingdom_audit_failures_total") == failures
    snapshot = Snapshot.objects.get(game=game, seq=game.head_seq)
    snapshot.state["resigned"] = [*snapshot.state["resigned"], 7]
    with triggers_disabled("games_snapshot"):  # snapshots are append-only on PostgreSQL
        snapshot.save(update_fields=["state"])
    assert not audit_game(game).passed
    assert sample("kingdom_audit_failures_total") == failures + 1
