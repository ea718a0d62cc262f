"""boardgame.io's server measured in the same run as ``bench live`` (``--peer bgio``).

The harness is the project's own, in ``bench/bgio/``: ``game.js`` (two players taking turns
to place a piece on a 20 x 20 board, every move checked by the server), ``server.js``
(boardgame.io's server on 127.0.0.1 with its in-memory store or its FlatFile store) and
``load.js`` (players that pace their moves as bench live's do, one JSON line of figures).
On first use npm installs the versions ``package.json`` pins into a directory of the
system's temporary directory named by that file's digest (``BGIO_DIR`` overrides it); then
every store gets a fresh server, which is stopped by its pid after the load. Without node
and npm, or when the install fails, the bench says so and reports without the peer.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import statistics
import subprocess
import tempfile
import time
from pathlib import Path
from typing import Any

HARNESS = Path(__file__).resolve().parent / "bgio"
SCRIPTS = ("game.js", "server.js", "load.js")
# The durable store first (the yardstick: boardgame.io writing every move through to its
# files), then the in-memory one.
STORES = ("flatfile-direct", "memory")
# The board has 400 squares and the 400th move ends a match: at most 399 a match.
MAX_MOVES = 399
INSTALL_SECONDS = 600
READY_SECONDS = 30


def install_dir() -> Path:
    """Where npm installs the harness: BGIO_DIR, or a temporary directory named by the
    digest of package.json, so a changed pin installs afresh."""
    if env := os.environ.get("BGIO_DIR"):
        return Path(env)
    digest = hashlib.sha256((HARNESS / "package.json").read_bytes()).hexdigest()[:12]
    return Path(tempfile.gettempdir()) / f"kingdom-bench-bgio-{digest}"


def install(workdir: Path) -> str | None:
    """npm installs package.json's pins into ``workdir`` once; None, or why it failed."""
    wanted = (HARNESS / "package.json").read_text()
    marker = workdir / ".installed"
    if marker.exists() and marker.read_text() == wanted:
        return None
    workdir.mkdir(parents=True, exist_ok=True)
    (workdir / "package.json").write_text(wanted)
    try:
        done = subprocess.run(
            ["npm", "install", "--no-audit", "--no-fund", "--omit=dev"],
            cwd=workdir,
            capture_output=True,
            text=True,
            timeout=INSTALL_SECONDS,
        )
    except subprocess.TimeoutExpired:
        return f"npm install of the boardgame.io harness took over {INSTALL_SECONDS} s"
    if done.returncode != 0:
        return "npm install of the boardgame.io harness failed: " + _last_line(done.stderr)
    marker.write_text(wanted)
    return None


def run_bgio(matches: int, moves: int, seconds: int) -> tuple[list[dict[str, Any]], str | None]:
    """The harness's JSON lines for ``matches`` concurrent matches, one run on each store
    (durable, then in memory), or ([], why not)."""
    if shutil.which("node") is None or shutil.which("npm") is None:
        return [], "node/npm are not installed: no boardgame.io peer in this run"
    workdir = install_dir()
    if why_not := install(workdir):
        return [], why_not
    for name in SCRIPTS:
        shutil.copyfile(HARNESS / name, workdir / name)
    env = {**os.environ, "NODE_ENV": os.environ.get("NODE_ENV", "production")}
    env.pop("FLATFILE_DIR", None)  # boardgame.io's Server() would take it over our store
    lines = [
        _run_store(workdir, env, store, matches, max(1, min(moves, MAX_MOVES)), seconds)
        for store in STORES
    ]
    return [{"name": f"peer boardgame.io {line.get('label', '')}", **line} for line in lines], None


def _run_store(
    workdir: Path, env: dict[str, str], store: str, matches: int, moves: int, seconds: int
) -> dict[str, Any]:
    """A fresh server on ``store``, the load against it, the server stopped again."""
    label = f"{store}/raw/M={matches}/run1"
    data = Path(tempfile.mkdtemp(prefix=f"data-{store}-", dir=workdir))
    out, err = workdir / f"server-{store}.out", workdir / f"server-{store}.err"
    with out.open("w") as stdout, err.open("w") as stderr:
        server = subprocess.Popen(
            ["node", "server.js", "--storage", store, "--dir", str(data)],
            cwd=workdir,
            env=env,
            stdout=stdout,
            stderr=stderr,
        )
    try:
        port = _ready_port(server, out)
        if port is None:
            return {
                "label": label,
                "storage": store,
                "error": "server did not start: " + _last_line(err.read_text()),
            }
        load = [
            "node", "load.js", "--url", f"http://127.0.0.1:{port}",
            "--matches", str(matches), "--moves", str(moves), "--max-seconds", str(seconds),
            "--server-pid", str(server.pid), "--clk-tck", str(os.sysconf("SC_CLK_TCK")),
            "--label", label, "--storage-label", store,
        ]  # fmt: skip
        try:
            done = subprocess.run(
                load, cwd=workdir, env=env, capture_output=True, text=True, timeout=seconds + 45
            )
        except subprocess.TimeoutExpired:
            return {"label": label, "storage": store, "error": "load.js did not finish in time"}
        for raw in reversed(done.stdout.splitlines()):
            try:
                return {"label": label, "storage": store, **json.loads(raw)}
            except json.JSONDecodeError:
                continue
        return {
            "label": label,
            "storage": store,
            "error": "load.js printed nothing: " + _last_line(done.stderr),
        }
    finally:
        server.terminate()
        try:
            server.wait(timeout=5)
        except subprocess.TimeoutExpired:
            server.kill()
            server.wait()
        shutil.rmtree(data, ignore_errors=True)


def _ready_port(server: subprocess.Popen[bytes], out: Path) -> int | None:
    """The port from the server's ready line, once it has printed it."""
    deadline = time.monotonic() + READY_SECONDS
    while time.monotonic() < deadline and server.poll() is None:
        first = out.read_text().partition("\n")
        if first[1]:
            try:
                return int(json.loads(first[0])["port"])
            except (ValueError, KeyError, TypeError):
                return None
        time.sleep(0.1)
    return None


def _last_line(text: str) -> str:
    return (text.strip().splitlines() or [""])[-1][:300]


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
