"""``manage.py bench bots``: the options reach the measurement, and the worker's log lines
become each level's decision times (the measurement on a real stack runs in the fault
suite, tests/faults/test_bench_bots.py)."""

from __future__ import annotations

import io
import json

import pytest
from django.core.management import CommandError, call_command

from bench import bots


def test_bench_bots_passes_the_table_s_levels_and_thinking_time(monkeypatch):
    asked = {}

    def run(**options):
        asked.update(options)
        return [{"name": f"bench.bots.{options['ruleset']}.{level}"} for level in options["levels"]]

    monkeypatch.setattr(bots, "run", run)
    out = io.StringIO()
    call_command(
        "bench", "bots", "kingdom-cards", "--levels", "expert,medium", "--think", "0.3", stdout=out
    )
    lines = [json.loads(line) for line in out.getvalue().splitlines()]
    assert [line["name"] for line in lines] == [
        "bench.bots.kingdom-cards.expert",
        "bench.bots.kingdom-cards.medium",
    ]
    assert (asked["levels"], asked["think"], asked["tables"]) == (("expert", "medium"), 0.3, 2)
    for wrong in (["--levels", "expert,grandmaster"], ["--think", "0.01"]):
        with pytest.raises(CommandError, match="--levels takes"):
            call_command("bench", "bots", *wrong, stdout=io.StringIO())


def test_the_worker_s_lines_give_each_level_s_decision_times(tmp_path):
    log = tmp_path / "worker.log"
    moves = [{"event": bots.CHOSEN, "level": "expert", "seconds": s / 1000} for s in range(1, 101)]
    moves.append({"event": bots.CHOSEN, "level": "hard", "seconds": 0.6})
    log.write_text(
        "--- start: celery worker\n"
        + "\n".join(json.dumps(m) for m in moves)
        + '\n{"event": "Task succeeded", "seconds": 9}\nnot json\n'
    )
    read = bots._moves(log)
    assert len(read) == 101
    expert = bots._line("kingdoms", "expert", 0.5, read, tables=2, wall=10.0)
    assert (expert["n"], expert["p50_ms"], expert["p99_ms"]) == (100, 50.0, 99.0)
    assert expert["within_budget"] is True
    hard = bots._line("kingdoms", "hard", 0.5, read, tables=2, wall=10.0)
    assert (hard["n"], hard["within_budget"]) == (1, False)  # 600 ms > 550 ms
    assert bots._line("kingdoms", "easy", 0.5, read, 2, 10.0)["within_budget"] is False
