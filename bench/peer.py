"""boardgame.io's server measured in the same run as ``bench live`` (``--peer bgio``).

The harness lives outside this repository (``shared/anchors/bgio/``: its own game, server
and load generator, installed from npm into /tmp/bgio-anchor); this module only calls its
``run.sh`` and sets our figures beside its own. Without node or the harness the bench
says so and reports without the peer.
"""

from __future__ import annotations

import json
import os
import shutil
import statistics
import subprocess
from pathlib import Path
from typing import Any

from django.conf import settings

# The durable store first (the yardstick: boardgame.io persisting every move), then the in-memory one.
CONFIGS = "flatfile-direct:raw memory:raw"


def anchor_dir() -> Path | None:
    """shared/anchors/bgio beside the worktree (BGIO_ANCHOR overrides)."""
    if env := os.environ.get("BGIO_ANCHOR"):
        return Path(env)
    for parent in Path(settings.BASE_DIR).resolve().parents:
        candidate = parent / "shared" / "anchors" / "bgio"
        if (candidate / "run.sh").exists():
            return candidate
    return None


def run_bgio(matches: int, moves: int, seconds: int) -> tuple[list[dict[str, Any]], str | None]:
    """The anchor's JSON lines for ``matches`` concurrent matches (one run each of the
    durable and in-memory stores), or ([], why not)."""
    anchor = anchor_dir()
    if anchor is None:
        return [], "the boardgame.io anchor (shared/anchors/bgio/run.sh) was not found"
    if shutil.which("node") is None or shutil.which("npm") is None:
        return [], "node/npm are not installed: no boardgame.io peer in this run"
    workdir = Path(os.environ.get("BGIO_DIR", "/tmp/bgio-anchor"))
    installed = (workdir / "node_modules" / "boardgame.io" / "package.json").exists()
    env = {
        **os.environ,
        "BGIO_DIR": str(workdir),
        "CONFIGS": CONFIGS,
        "MATCHES": str(matches),
        "REPEATS": "1",
        # A match has 400 cells (a 20x20 board); the 400th move ends it as a draw, where
        # the anchor's own check of each match expects one more turn: at most 399.
        "MOVES": str(max(1, min(moves, 399))),
        "MAX_SECONDS": str(seconds),
        "SKIP_INSTALL": "1" if installed else "0",
    }
    try:
        done = subprocess.run(
            ["bash", str(anchor / "run.sh")],
            env=env,
            capture_output=True,
            text=True,
            timeout=2 * (seconds + 60) + (0 if installed else 300),
        )
    except subprocess.TimeoutExpired:
        return [], "the boardgame.io anchor did not finish in time"
    lines = []
    for raw in done.stdout.splitlines():
        try:
            lines.append(json.loads(raw))
        except json.JSONDecodeError:
            continue
    if not lines:
        return [], f"the boardgame.io anchor printed nothing (exit {done.returncode}): " + (
            done.stderr.strip().splitlines() or [""]
        )[-1][:300]
    return [{"name": f"peer boardgame.io {line.get('label', '')}", **line} for line in lines], None


def over(ours: Any, theirs: Any) -> float | None:
    """Our figure over a peer's, to 3 places (None when either is missing)."""
    return round(ours / theirs, 3) if isinstance(ours, int | float) and theirs else None


def ratios(ours: dict[str, Any], peer: dict[str, Any]) -> dict[str, Any]:
    """Ours over the peer's: above 1 is better for commands/s, worse for CPU and p50."""
    latency = peer.get("lat_ms") or {}
    return {
        "name": f"ratio ours/peer {peer.get('storage')}, {ours['ruleset']}",
        "peer": peer.get("label"),
        "commands_per_s_ratio": over(ours["commands_per_s"], peer.get("moves_per_s")),
        "cpu_ms_per_move_ratio": over(
            ours["server_cpu_ms_per_move"], peer.get("server_cpu_ms_per_move")
        ),
        "p50_ratio": over(ours["move_to_own_socket_p50_ms"], latency.get("p50")),
        "p99_ratio": over(ours["move_to_own_socket_p99_ms"], latency.get("p99")),
    }


RATIO_FIELDS = ("commands_per_s_ratio", "cpu_ms_per_move_ratio", "p50_ratio", "p99_ratio")


def median_ratios(lines: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """For each ratio line that came once per round (``bench live --rounds``): every
    round's value and their median."""
    by_name: dict[str, list[dict[str, Any]]] = {}
    for line in lines:
        if line.get("name", "").startswith("ratio ") and "round" in line:
            by_name.setdefault(line["name"], []).append(line)
    summaries = []
    for name, rounds in by_name.items():
        summary: dict[str, Any] = {"name": f"{name}, median of {len(rounds)} rounds"}
        for field in RATIO_FIELDS:
            values = [line[field] for line in rounds if line.get(field) is not None]
            summary[field] = round(statistics.median(values), 3) if values else None
            summary[f"{field}_by_round"] = [line.get(field) for line in rounds]
        summaries.append(summary)
    return summaries
