"""Liveness of the Celery processes: a worker's timer and beat's ticks keep
HEARTBEAT_FILE fresh, which the Kubernetes probes read."""

from __future__ import annotations

import time

import pytest
from celery.contrib.testing.worker import start_worker

from infra import heartbeat
from kingdom.celery import app


def wait_until(condition, seconds: float = 10) -> None:
    deadline = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < deadline, "timed out"
        time.sleep(0.05)


def test_a_running_worker_keeps_its_heartbeat_file_fresh(tmp_path, monkeypatch):
    beat_file = tmp_path / "heartbeat"
    monkeypatch.setenv("HEARTBEAT_FILE", str(beat_file))
    monkeypatch.setattr(heartbeat, "HEARTBEAT_EVERY", 0.1)
    with start_worker(app, pool="solo", perform_ping_check=False, shutdown_timeout=10):
        wait_until(beat_file.exists)
        first = beat_file.stat().st_mtime_ns
        wait_until(lambda: beat_file.stat().st_mtime_ns > first)
    # A stopped worker leaves no file behind to pass a probe.
    assert not beat_file.exists()


def test_a_worker_without_heartbeat_file_writes_none(tmp_path, monkeypatch):
    monkeypatch.delenv("HEARTBEAT_FILE", raising=False)
    monkeypatch.chdir(tmp_path)
    with start_worker(app, pool="solo", perform_ping_check=False, shutdown_timeout=10):
        pass
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("configured", [True, False])
def test_each_tick_of_beat_touches_its_heartbeat_file(tmp_path, monkeypatch, configured):
    beat_file = tmp_path / "heartbeat"
    if configured:
        monkeypatch.setenv("HEARTBEAT_FILE", str(beat_file))
    else:
        monkeypatch.delenv("HEARTBEAT_FILE", raising=False)
    scheduler = app.conf.beat_scheduler
    assert scheduler == "infra.heartbeat:HeartbeatScheduler"
    beat = heartbeat.HeartbeatScheduler(
        app=app, schedule_filename=str(tmp_path / "schedule"), lazy=False
    )
    beat.schedule.clear()  # no sweep is sent; the tick alone is under test
    try:
        assert beat.tick() > 0
    finally:
        beat.close()
    assert beat_file.exists() is configured
