"""``bench bots``: the search bots' decision times in the Celery worker, as deployed.

The processes of deploy/Procfile on a PostgreSQL and a Redis of their own (bench/stack.py);
bots-only tables opened over HTTP, each seating the levels given at the thinking time
given, played to their end by the worker; then each level's decision times, read from the
worker's log (``kingdom.bots``' line per move: the game read and the choice, as the
``kingdom_bot_turn_seconds`` histogram times them). The arena measures the same search in
its own processes; this is the worker's side of "p99 within the budget + 10%".
"""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

from bench.faults.community import PASSWORD, request
from bench.stack import started_stack, wait_until
from bots.search.arena import percentile

# A move's p99 may exceed the thinking time by this share (the bots' standard).
OVERRUN = 0.10
CHOSEN = "bot move chosen"


def run(
    *,
    ruleset: str = "kingdoms",
    levels: tuple[str, ...] = ("expert", "hard"),
    tables: int = 2,
    think: float = 0.5,
    timeout: float = 1800.0,
    progress: Any = None,
) -> list[dict[str, Any]]:
    """Play ``tables`` bots-only games of ``levels`` through the worker; one JSON line
    per level. The processes' logs stay in a temporary directory when it fails."""
    with started_stack("kingdom-bots-", progress, webs=1) as stack:
        base = stack.urls[0]
        ids = [_open(base, ruleset, levels, think, n) for n in range(tables)]
        started = time.monotonic()
        wait_until(lambda: all(_over(base, i) for i in ids), "the games to end", timeout, 1.0)
        wall = time.monotonic() - started
        moves = _moves(stack.workdir / "worker.log")
    return [_line(ruleset, level, think, moves, tables, wall) for level in dict.fromkeys(levels)]


def _open(base: str, ruleset: str, levels: tuple[str, ...], think: float, n: int) -> str:
    """A started bots-only table, opened by an account of its own (an account may keep
    only a few search bots thinking at once)."""
    name = f"bench-bots-{n}-{int(time.time())}"
    status, account = request(
        base, "POST", "/api/auth/signup/", {"username": name, "password": PASSWORD}
    )
    if status != 201:
        raise RuntimeError(f"sign-up answered {status}: {account}")
    token = account["token"]
    body = {"ruleset": ruleset, "seats": len(levels), "join": False, "bot_think_seconds": think}
    status, table = request(base, "POST", "/api/tables/", body, token)
    if status != 201:
        raise RuntimeError(f"opening a table answered {status}: {table}")
    path = f"/api/tables/{table['id']}"
    # Seats alternate between tables, so each level sits first as often as second.
    for level in levels[n % len(levels) :] + levels[: n % len(levels)]:
        status, answer = request(base, "POST", f"{path}/bots/", {"level": level}, token)
        if status != 201:
            raise RuntimeError(f"seating a {level} bot answered {status}: {answer}")
    status, answer = request(base, "POST", f"{path}/start/", {}, token)
    if status not in (200, 201):
        raise RuntimeError(f"starting the table answered {status}: {answer}")
    return table["id"]


def _over(base: str, table_id: str) -> bool:
    status, table = request(base, "GET", f"/api/tables/{table_id}/")
    return status == 200 and table.get("status") not in ("open", "active")


def _moves(log: Path) -> list[dict[str, Any]]:
    """The worker's lines of bots' moves (its JSON lines; any other line is skipped)."""
    moves = []
    for raw in log.read_text(errors="replace").splitlines():
        try:
            line = json.loads(raw)
        except ValueError:
            continue
        if isinstance(line, dict) and line.get("event") == CHOSEN:
            moves.append(line)
    return moves


def _line(
    ruleset: str, level: str, think: float, moves: list[dict[str, Any]], tables: int, wall: float
) -> dict[str, Any]:
    seconds = [m["seconds"] for m in moves if m.get("level") == level]
    p99 = percentile(seconds, 99)
    return {
        "name": f"bench.bots.{ruleset}.{level}",
        "tables": tables,
        "think_seconds": think,
        "n": len(seconds),
        "p50_ms": round(percentile(seconds, 50) * 1000, 1),
        "p99_ms": round(p99 * 1000, 1),
        "max_ms": round(max(seconds, default=0.0) * 1000, 1),
        "within_budget": bool(seconds) and p99 <= think * (1 + OVERRUN),
        "wall_seconds": round(wall, 1),
    }
