"""``manage.py bench faults``: the faults asked for, in order, one JSON line each (the
measurement itself runs in the fault suite, tests/faults)."""

from __future__ import annotations

import io
import json

from django.core.management import call_command

from bench import faults


def test_bench_faults_runs_the_faults_asked_for_and_prints_a_json_line_each(monkeypatch):
    asked = {}

    def run(**options):
        asked.update(options)
        return [{"name": f"faults {name}", "recovery_seconds": 1.0} for name in options["faults"]]

    monkeypatch.setattr(faults, "run", run)
    out = io.StringIO()
    call_command(
        "bench",
        "faults",
        "--fault",
        "redis_stopped",
        "--fault",
        "worker_killed",
        "--down",
        "3",
        "--games",
        "4",
        stdout=out,
    )
    lines = [json.loads(line) for line in out.getvalue().splitlines()]
    assert [line["name"] for line in lines] == ["faults redis_stopped", "faults worker_killed"]
    assert asked["faults"] == ("redis_stopped", "worker_killed")
    assert asked["down"] == 3.0 and asked["tables"] == 4


def test_bench_faults_runs_every_fault_by_default(monkeypatch):
    asked = {}
    monkeypatch.setattr(faults, "run", lambda **options: asked.update(options) or [])
    call_command("bench", "faults", stdout=io.StringIO())
    assert asked["faults"] == (*faults.FAULTS, faults.LONG_FAULT)
    assert asked["long_down"] == 30.0
