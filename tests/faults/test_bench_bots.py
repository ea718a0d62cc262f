"""``bench bots`` on a stack of its own: bots-only tables played to the end by the Celery
worker, and each level's decision times read back from the worker's log."""

from __future__ import annotations

from bench import bots


def test_the_worker_logs_every_bot_move_and_the_bench_reads_them():
    lines = bots.run(ruleset="kingdoms", levels=("medium", "easy"), tables=1, think=0.5)
    by_level = {line["name"]: line for line in lines}
    medium, easy = by_level["bench.bots.kingdoms.medium"], by_level["bench.bots.kingdoms.easy"]
    # A two-player Kingdoms game: each seat moves dozens of times, all well within 0.5 s.
    assert medium["n"] >= 20 and easy["n"] >= 20
    assert medium["within_budget"] and easy["within_budget"]
