"""bench/peer.py: boardgame.io's server played by the project's own harness (bench/bgio/),
our figures over its own, and over several rounds the median of each ratio beside every
round's value."""

from __future__ import annotations

import json
import re
import shutil

import pytest

from bench import peer


def _ours(per_second: float, cpu: float, p50: float, p99: float) -> dict:
    return {
        "ruleset": "kingdoms",
        "commands_per_s": per_second,
        "server_cpu_ms_per_move": cpu,
        "move_to_own_socket_p50_ms": p50,
        "move_to_own_socket_p99_ms": p99,
    }


def _theirs(per_second: float, cpu: float, p50: float, p99: float, storage: str) -> dict:
    return {
        "label": f"{storage}/raw/M=16/run1",
        "storage": storage,
        "moves_per_s": per_second,
        "server_cpu_ms_per_move": cpu,
        "lat_ms": {"p50": p50, "p99": p99},
    }


def test_a_ratio_is_ours_over_the_peers_figure():
    ratio = peer.ratios(_ours(300, 3.0, 40, 100), _theirs(400, 2.0, 32, 80, "flatfile-direct"))
    assert ratio["name"] == "ratio ours/peer flatfile-direct, kingdoms"
    assert ratio["commands_per_s_ratio"] == 0.75
    assert ratio["cpu_ms_per_move_ratio"] == 1.5
    assert ratio["p50_ratio"] == 1.25 and ratio["p99_ratio"] == 1.25


def test_rounds_give_each_ratio_its_median_and_every_rounds_value():
    theirs = [(400, 2.0), (550, 2.1), (480, 2.5)]  # the peer drifts from round to round
    ours = [(300, 3.0), (330, 3.3), (360, 3.0)]
    lines = []
    for number, ((our_rate, our_cpu), (peer_rate, peer_cpu)) in enumerate(
        zip(ours, theirs, strict=True), start=1
    ):
        for storage, scale in (("flatfile-direct", 1), ("memory", 5)):
            peer_line = _theirs(peer_rate * scale, peer_cpu / scale, 30, 60, storage)
            ratio = peer.ratios(_ours(our_rate, our_cpu, 45, 90), peer_line)
            lines.append({**ratio, "round": number})
    lines.append({"name": "live kingdoms, 2 process(es), 16 tables", "round": 1})

    durable, memory = peer.median_ratios(lines)
    assert durable["name"] == "ratio ours/peer flatfile-direct, kingdoms, median of 3 rounds"
    assert durable["commands_per_s_ratio_by_round"] == [0.75, 0.6, 0.75]
    assert durable["commands_per_s_ratio"] == 0.75
    assert durable["cpu_ms_per_move_ratio_by_round"] == [1.5, 1.571, 1.2]
    assert durable["cpu_ms_per_move_ratio"] == 1.5
    assert durable["p50_ratio"] == 1.5 and durable["p99_ratio"] == 1.5
    assert memory["name"] == "ratio ours/peer memory, kingdoms, median of 3 rounds"
    assert memory["commands_per_s_ratio"] == 0.15


def test_lines_of_one_run_have_no_medians():
    ratio = peer.ratios(_ours(300, 3.0, 40, 100), _theirs(400, 2.0, 32, 80, "memory"))
    assert peer.median_ratios([ratio]) == []


def test_the_harness_installs_exact_versions():
    """The figures in docs/performance.md came from these versions; a range would let a
    later install measure another boardgame.io."""
    package = json.loads((peer.HARNESS / "package.json").read_text())
    assert set(package["dependencies"]) == {"boardgame.io", "node-persist", "socket.io-client"}
    assert all(re.fullmatch(r"\d+\.\d+\.\d+", v) for v in package["dependencies"].values())
    # koa-compose 4.2 freezes boardgame.io 0.50's middleware before the Lobby routes exist.
    assert package["overrides"] == {"boardgame.io": {"koa-compose": "4.1.0"}}
    assert peer.install_dir() != peer.HARNESS  # installed outside the repository


@pytest.mark.skipif(shutil.which("npm") is None, reason="node and npm are not installed here")
def test_the_harness_plays_both_stores_and_checks_every_match():
    lines, why_not = peer.run_bgio(matches=2, moves=30, seconds=20)
    assert why_not is None
    assert [line["storage"] for line in lines] == ["flatfile-direct", "memory"]
    for line in lines:
        assert line["errors"] == 0, line
        assert line["moves_total"] == 60 and not line["truncated"]
        assert line["moves_per_s"] > 0 and line["server_cpu_ms_per_move"] is not None
        assert line["lat_ms"]["p50"] <= line["lat_ms"]["p99"]
        ratio = peer.ratios(_ours(300, 3.0, 40, 100), line)
        assert ratio["commands_per_s_ratio"] == round(300 / line["moves_per_s"], 3)
