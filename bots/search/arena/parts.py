"""A match played in parts (the same match, other seeds), each saved as JSON with every
game's result and the commit that played it, and pooled into one match; parts of the same
match at several thinking times pool into one match per thinking time.
"""

from __future__ import annotations

import dataclasses
import json
import os
import subprocess
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from bots.search.arena.games import GameResult, Match

PART_FORMAT = 1
# What makes two parts the same match (their seeds must differ, their games may).
SAME_MATCH = ("game", "a", "b", "lineup", "players", "seconds", "playouts", "options")


@dataclass(frozen=True)
class Tree:
    """The source tree that plays a part: its commit, and whether tracked files differed
    from it (None: not known, e.g. no git)."""

    commit: str | None
    changed: bool | None


@dataclass
class Part:
    match: Match
    results: list[GameResult]
    tree: Tree
    started: str  # UTC, ISO 8601, to the second
    finished: str
    jobs: int
    path: str = ""


def source_tree() -> Tree:
    """The commit checked out where this module lives, and whether tracked files differ."""

    def git(*args: str) -> str | None:
        try:
            return subprocess.run(
                ["git", *args],
                cwd=Path(__file__).resolve().parent,
                capture_output=True,
                text=True,
                check=True,
                timeout=10,
            ).stdout.strip()
        except (OSError, subprocess.SubprocessError):
            return None

    commit = git("rev-parse", "HEAD")
    status = git("status", "--porcelain", "--untracked-files=no") if commit else None
    return Tree(commit or None, None if status is None else bool(status))


def save_part(path: str | Path, part: Part) -> None:
    """Write ``part`` as JSON, one game a line; decision times in whole milliseconds."""
    m = part.match
    head = {
        "format": PART_FORMAT,
        "match": {**dataclasses.asdict(m), "lineup": list(m.lineup)},
        "commit": part.tree.commit,
        "changed": part.tree.changed,
        "started": part.started,
        "finished": part.finished,
        "jobs": part.jobs,
    }
    games = [
        json.dumps(
            {
                "index": r.index,
                "levels": r.levels,
                "winners": r.winners,
                "score_a": r.score_a,
                "places": r.places,
                "commands": r.commands,
                "ms": {level: [round(s * 1000) for s in v] for level, v in r.seconds.items()},
            },
            sort_keys=True,
        )
        for r in part.results
    ]
    text = json.dumps(head, indent=2, sort_keys=True)[: -len("\n}")]
    text += ',\n  "results": [\n' + ",\n".join(f"    {g}" for g in games) + "\n  ]\n}\n"
    path = Path(path)
    draft = path.with_name(f".{path.name}.draft")
    draft.write_text(text)
    os.replace(draft, path)


def load_part(path: str | Path) -> Part:
    """A saved part, checked: its games are the match's games, each once, seated as the
    match seats them. Raises ValueError saying what is wrong."""
    try:
        data = json.loads(Path(path).read_text())
    except (OSError, json.JSONDecodeError) as exc:
        raise ValueError(f"{path}: not a readable part ({exc})") from exc
    if not isinstance(data, dict) or data.get("format") != PART_FORMAT:
        raise ValueError(f"{path}: not an arena part of format {PART_FORMAT}")
    try:
        match = Match(**{**data["match"], "lineup": tuple(data["match"]["lineup"])})
        results = [
            GameResult(
                index=g["index"],
                levels=g["levels"],
                winners=g["winners"],
                score_a=g["score_a"],
                commands=g["commands"],
                seconds={level: [ms / 1000 for ms in v] for level, v in g["ms"].items()},
                places=g["places"],
            )
            for g in data["results"]
        ]
        part = Part(
            match,
            results,
            Tree(data["commit"], data["changed"]),
            data["started"],
            data["finished"],
            data["jobs"],
            str(path),
        )
    except (KeyError, TypeError) as exc:
        raise ValueError(f"{path}: a part's field is missing or malformed ({exc})") from exc
    if sorted(r.index for r in results) != list(range(match.games)):
        raise ValueError(f"{path}: its games are not games 0 to {match.games - 1}, once each")
    if any(r.levels != match.levels(r.index) for r in results):
        raise ValueError(f"{path}: a game's seating is not the match's")
    return part


def _named(part: Part) -> str:
    return part.path or f"the part of seed {part.match.seed}"


def _same_match(parts: Sequence[Part], fields: Sequence[str]) -> None:
    """Raises ValueError naming the first part whose match differs from the first's in
    one of ``fields``."""
    first = parts[0]
    for part in parts[1:]:
        differ = [
            name for name in fields if getattr(part.match, name) != getattr(first.match, name)
        ]
        if differ:
            raise ValueError(
                f"{_named(part)} is not the same match as {_named(first)}: "
                + ", ".join(
                    f"{name} {getattr(part.match, name)!r} against {getattr(first.match, name)!r}"
                    for name in differ
                )
            )


def pool(parts: Sequence[Part]) -> tuple[Match, list[GameResult]]:
    """The parts as one match: the first part's, with all their games. Each result keeps
    its index within its part (indices repeat across parts; no statistic uses them).
    Raises ValueError unless the parts are the same match at different seeds."""
    if not parts:
        raise ValueError("no parts to pool")
    _same_match(parts, SAME_MATCH)
    seeds: dict[int, Part] = {}
    for part in parts:
        if part.match.seed in seeds:
            raise ValueError(
                f"{_named(part)} and {_named(seeds[part.match.seed])} both have seed "
                f"{part.match.seed}: the same games twice"
            )
        seeds[part.match.seed] = part
    results = [r for part in parts for r in part.results]
    return dataclasses.replace(parts[0].match, games=len(results)), results


def pool_by_budget(parts: Sequence[Part]) -> list[tuple[Match, list[GameResult], list[Part]]]:
    """The parts pooled per thinking time, shortest first: each budget's match, its games
    and its parts. Raises ValueError unless the parts are one match but for the thinking
    time, and, within a thinking time, different seeds."""
    if not parts:
        raise ValueError("no parts to pool")
    _same_match(parts, [name for name in SAME_MATCH if name != "seconds"])
    groups: dict[float | None, list[Part]] = {}
    for part in parts:
        groups.setdefault(part.match.seconds, []).append(part)
    pooled = []
    for seconds in sorted(groups, key=lambda budget: budget or 0.0):
        match, results = pool(groups[seconds])
        pooled.append((match, results, groups[seconds]))
    return pooled
