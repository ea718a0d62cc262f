"""Bot tournaments on the rules engines, in parallel processes (no database needed).

python manage.py arena kingdoms --a hard --b medium --games 200 --players 2
python manage.py arena kingdom-cards --a medium --b easy --jobs 2 --plot rates.png
python manage.py arena kingdoms --field expert,hard,medium --games 60
python manage.py arena kingdom-builder --a hard --b medium --budget 0.1,0.25,0.5,1 --plot t.png
python manage.py arena kingdoms --a expert --b hard --games 40 --seed 9 --budget 0.5 --save part.json

Prints A's win rate (ties as half) with its 95% Wilson interval, overall and per seat,
an Elo table derived from it, and each level's decision time (p50 / p99 / max). With
``--field`` (one level per seat, seated in every order in turn): each level's mean placing
with its 95% interval, and the first level's placing against each other level's. With
several budgets, the match at each, and ``--plot`` draws the win rate by thinking time.
``--save`` writes the games as a part that ``arena_pool`` pools with the match's other
parts (other seeds).
"""

from __future__ import annotations

import argparse
import json
import os
from collections.abc import Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError
from tqdm import tqdm

from bots.search.arena import (
    FieldSummary,
    GameResult,
    Match,
    Part,
    Summary,
    Tree,
    play_match,
    save_part,
    source_tree,
    summarise,
    summarise_field,
    wilson,
)
from bots.search.budget import DEFAULT_THINK_SECONDS
from bots.strategies import LEVELS
from games.rules import all_rulesets


class Command(BaseCommand):
    help = "Play bot levels against each other and report win rates, Elo and decision times."

    def add_arguments(self, parser) -> None:
        parser.add_argument("game", help="ruleset key, e.g. kingdoms")
        parser.add_argument("--a", default="hard", choices=LEVELS, help="the level measured")
        parser.add_argument("--b", default="medium", choices=LEVELS, help="its opponent")
        parser.add_argument("--games", type=int, default=200)
        parser.add_argument("--players", type=int, default=2)
        parser.add_argument(
            "--field",
            default=None,
            help="levels, one per seat, comma-separated (e.g. expert,hard,medium): "
            "mean placings instead of A against B",
        )
        parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
        parser.add_argument("--seed", type=int, default=0)
        parser.add_argument(
            "--budget",
            type=_seconds_list,
            default=None,
            help=f"search bots' seconds per decision (default {DEFAULT_THINK_SECONDS}); "
            "several, comma-separated, play the match at each (--plot: win rate by "
            "thinking time)",
        )
        parser.add_argument(
            "--playouts", type=int, default=None, help="search bots' playouts per decision"
        )
        parser.add_argument("--options", default="{}", help="table options as JSON")
        parser.add_argument("--plot", default=None, help="write the win-rate chart (PNG)")
        parser.add_argument("--json", action="store_true", help="also print a JSON summary")
        parser.add_argument(
            "--save",
            default=None,
            metavar="PATH",
            help="write the games as a part (JSON: the match, the commit, every game's "
            "result and decision times) for arena_pool; one --budget only, and not over "
            "an existing file",
        )
        parser.add_argument("--no-progress", action="store_true")

    def handle(self, *args: Any, **options: Any) -> None:
        keys = {r.key for r in all_rulesets()}
        if options["game"] not in keys:
            raise CommandError(f"unknown ruleset {options['game']!r}; one of {sorted(keys)}")
        if options["games"] < 1 or options["jobs"] < 1:
            raise CommandError("--games and --jobs must be at least 1")
        try:
            game_options = json.loads(options["options"])
        except json.JSONDecodeError as exc:
            raise CommandError(f"--options is not JSON: {exc}") from exc
        budgets = options["budget"] or [None]
        if budgets == [None] and options["playouts"] is None:
            budgets = [DEFAULT_THINK_SECONDS]
        lineup = tuple(options["field"].split(",")) if options["field"] else ()
        unknown = [level for level in lineup if level not in LEVELS]
        if unknown or len(set(lineup)) == 1:
            raise CommandError(f"--field needs two or more of {', '.join(LEVELS)}")
        if lineup and len(budgets) > 1:
            raise CommandError("a field is played at one budget at a time")
        save = Path(options["save"]) if options["save"] else None
        if save is not None:
            if len(budgets) > 1:
                raise CommandError("--save keeps one part: give one --budget")
            if save.exists():
                raise CommandError(f"{save} exists: a saved part is not overwritten")
            try:
                save.parent.mkdir(parents=True, exist_ok=True)
            except OSError as exc:
                raise CommandError(f"cannot save in {save.parent}: {exc}") from exc
        tree = source_tree() if save is not None else Tree(None, None)  # before the games
        summaries = []
        for seconds in budgets:
            match = Match(
                game=options["game"],
                a=lineup[0] if lineup else options["a"],
                b=lineup[1] if lineup else options["b"],
                games=options["games"],
                players=len(lineup) if lineup else options["players"],
                lineup=lineup,
                seed=options["seed"],
                seconds=seconds,
                playouts=options["playouts"],
                options=game_options,
            )
            started = _now()
            results = _played(match, options)
            if save is not None:
                jobs = min(options["jobs"], match.games)
                save_part(save, Part(match, results, tree, started, _now(), jobs))
                self.stdout.write(f"part written to {save}")
            if lineup:
                standings = summarise_field(match, results)
                self.stdout.write(field_report(standings))
                if options["json"]:
                    self.stdout.write(json.dumps(field_json(standings), sort_keys=True))
                return
            summary = summarise(match, results)
            summaries.append(summary)
            self.stdout.write(report(summary))
            if options["json"]:
                self.stdout.write(json.dumps(as_json(summary), sort_keys=True))
            if options["plot"] and len(budgets) == 1:
                plot(summary, results, options["plot"])
        if options["plot"] and len(budgets) > 1:
            plot_by_budget(summaries, options["plot"])
        if options["plot"]:
            self.stdout.write(f"chart written to {options['plot']}")


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")


def _seconds_list(text: str) -> list[float]:
    try:
        values = [float(part) for part in text.split(",")]
    except ValueError as exc:
        raise argparse.ArgumentTypeError(f"not seconds: {text!r}") from exc
    if any(v <= 0 for v in values):
        raise argparse.ArgumentTypeError("seconds must be positive")
    return values


def _played(match: Match, options: dict[str, Any]) -> list[GameResult]:
    """The match's games, with a progress bar of the measured level's running score."""
    budget = f" at {match.seconds:g} s" if match.seconds else ""
    bar = tqdm(
        total=match.games,
        desc=f"{match.game} {' v '.join(match.lineup or (match.a, match.b))}{budget}",
        unit="game",
        disable=options["no_progress"],
    )
    tally = [0.0, 0]  # A's score, games played

    def tick(result: GameResult) -> None:
        tally[0] += result.score_a
        tally[1] += 1
        bar.update(1)
        bar.set_postfix_str(f"{match.a} {tally[0] / tally[1]:.0%}", refresh=False)

    try:
        return play_match(match, jobs=min(options["jobs"], match.games), on_result=tick)
    except ValueError as exc:
        raise CommandError(str(exc)) from exc
    finally:
        bar.close()


def _budget(m: Match) -> str:
    budget = f"{m.seconds:g} s" if m.seconds else ""
    if m.playouts:
        budget = f"{budget} / {m.playouts} playouts".strip(" /")
    searching = bool({"hard", "expert"} & {m.a, m.b, *m.lineup})
    return f", search budget {budget}" if searching else ""


def _times(table: dict[str, dict[str, float]], commands: int, games: int) -> list[str]:
    """The reports' last lines: each level's decision times, and commands per game."""
    lines = ["decision time per level (ms)"]
    for level, t in sorted(table.items()):
        lines.append(
            f"  {level:<8} n={t['n']:<7} p50={t['p50'] * 1000:8.1f}  "
            f"p99={t['p99'] * 1000:8.1f}  max={t['max'] * 1000:8.1f}"
        )
    lines.append(f"commands per game: {commands / max(games, 1):.0f}")
    return lines


def _seeds(m: Match, parts: Sequence[Part]) -> str:
    if len(parts) < 2:
        return f"seed {(parts[0].match if parts else m).seed}"
    return "seeds " + ", ".join(str(part.match.seed) for part in parts)


def _parts(parts: Sequence[Part]) -> list[str]:
    """The pooled reports' last line: each part's seed, games and commit."""
    if not parts:
        return []
    listed = []
    for part in parts:
        commit = part.tree.commit[:12] if part.tree.commit else "unknown"
        changed = " with uncommitted changes" if part.tree.changed else ""
        listed.append(f"seed {part.match.seed}: {part.match.games} games, commit {commit}{changed}")
    return [f"parts: {'; '.join(listed)}"]


def _json_head(m: Match, name: str, games: int) -> dict[str, Any]:
    """What every JSON summary starts with: its name, games, players and budget."""
    return {
        "name": f"arena.{m.game}.{name}",
        "games": games,
        "players": m.players,
        "seconds": m.seconds,
        "playouts": m.playouts,
    }


def field_report(summary: FieldSummary, parts: Sequence[Part] = ()) -> str:
    m = summary.match
    lines = [
        f"{m.game}: {', '.join(m.lineup)} in every seating, {summary.games} games of "
        f"{m.players} players, {_seeds(m, parts)}{_budget(m)}",
        "mean placing (1 is first), 95% CI, and wins (shared wins split)",
    ]
    for standing in summary.standings:
        mean, low, high = standing.place
        lines.append(
            f"  {standing.level:<8} {mean:5.2f}  [{low:.2f}, {high:.2f}]  "
            f"wins {standing.wins:g} of {summary.games}"
        )
    first = m.lineup[0]
    lines.append(f"{first}'s placing minus each other level's, per game (negative: {first} ahead)")
    for level, (mean, low, high) in summary.against.items():
        lines.append(f"  v {level:<8} {mean:+.2f}  [{low:+.2f}, {high:+.2f}]")
    lines += _times(summary.times, summary.commands, summary.games) + _parts(parts)
    return "\n".join(lines)


def field_json(summary: FieldSummary) -> dict[str, Any]:
    m = summary.match
    return {
        **_json_head(m, f"field.{'_'.join(m.lineup)}", summary.games),
        "placing": {s.level: [round(v, 3) for v in s.place] for s in summary.standings},
        "wins": {s.level: s.wins for s in summary.standings},
        "against": {level: [round(v, 3) for v in d] for level, d in summary.against.items()},
    }


def report(summary: Summary, parts: Sequence[Part] = ()) -> str:
    m = summary.match
    lines = [
        f"{m.game}: {m.a} v {m.b}, {summary.games} games of {m.players} players, "
        f"{_seeds(m, parts)}{_budget(m)}",
        f"{m.a} win rate {summary.rate:.1%}  95% CI [{summary.low:.1%}, {summary.high:.1%}]"
        f"  ({summary.score_a:g} of {summary.games}, ties count half)",
    ]
    for seat, (score, n) in summary.by_seat.items():
        low, high = wilson(score, n)
        rate = score / n if n else 0.0
        lines.append(f"  {m.a} in seat {seat}: {rate:.1%} [{low:.1%}, {high:.1%}] over {n} games")
    lines.append("Elo (centred on 1500, 95% CI)")
    for level, (rating, low, high) in sorted(summary.elo.items(), key=lambda kv: -kv[1][0]):
        lines.append(f"  {level:<8} {rating:7.0f}  [{low:.0f}, {high:.0f}]")
    lines += _times(summary.times, summary.commands, summary.games) + _parts(parts)
    return "\n".join(lines)


def as_json(summary: Summary) -> dict[str, Any]:
    m = summary.match
    return {
        **_json_head(m, f"{m.a}_v_{m.b}", summary.games),
        "rate": round(summary.rate, 4),
        "ci95": [round(summary.low, 4), round(summary.high, 4)],
        "elo": {level: round(v[0]) for level, v in summary.elo.items()},
        "times": {
            level: {k: (round(v, 5) if k != "n" else v) for k, v in t.items()}
            for level, t in summary.times.items()
        },
    }


def plot_by_budget(summaries: list[Summary], path: str) -> None:
    """A's win rate against B at each thinking time, with its 95% interval."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    m = summaries[0].match
    seconds = [s.match.seconds or 0.0 for s in summaries]
    rates = [s.rate for s in summaries]
    errors = [[s.rate - s.low for s in summaries], [s.high - s.rate for s in summaries]]
    figure, axes = plt.subplots(figsize=(6, 4))
    axes.errorbar(seconds, rates, yerr=errors, marker="o", capsize=5, color="#4a7ab5")
    axes.axhline(0.5, color="grey", linestyle="--", linewidth=1)
    axes.set_xscale("log")
    axes.set_xticks(seconds, [f"{s:g}" for s in seconds])
    axes.minorticks_off()
    axes.set_ylim(0, 1)
    axes.set_xlabel("search bots' thinking time per move (s)")
    axes.set_ylabel(f"{m.a} win rate v {m.b}")
    for x, summary in zip(seconds, summaries, strict=True):
        # Pooled parts may hold a different number of games at each thinking time.
        axes.annotate(
            f"{summary.games} games",
            (x, summary.low),
            textcoords="offset points",
            xytext=(0, -14),
            ha="center",
            fontsize=8,
        )
    axes.set_title(f"{m.game}: {m.a} v {m.b}, {m.players} players, 95% CI")
    figure.tight_layout()
    figure.savefig(path, dpi=100)
    plt.close(figure)


def plot(summary: Summary, results: list[GameResult], path: str) -> None:
    """Left: A's win rate overall and per seat with 95% intervals; right: the running
    win rate over the games played, with its interval."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    m = summary.match
    labels = ["all"] + [f"seat {s}" for s in summary.by_seat]
    cells = [(summary.score_a, summary.games), *summary.by_seat.values()]
    rates = [score / n if n else 0.0 for score, n in cells]
    bounds = [wilson(score, n) for score, n in cells]
    errors = [
        [r - low for r, (low, _) in zip(rates, bounds, strict=True)],
        [high - r for r, (_, high) in zip(rates, bounds, strict=True)],
    ]
    figure, (bars, running) = plt.subplots(1, 2, figsize=(10, 4))
    bars.bar(labels, rates, yerr=errors, capsize=6, color="#4a7ab5")
    bars.axhline(0.5, color="grey", linestyle="--", linewidth=1)
    bars.set_ylim(0, 1)
    bars.set_ylabel(f"{m.a} win rate v {m.b}")
    bars.set_title(f"{m.game}, {summary.games} games")
    score, xs, ys, lows, highs = 0.0, [], [], [], []
    for n, result in enumerate(results, start=1):
        score += result.score_a
        low, high = wilson(score, n)
        xs.append(n)
        ys.append(score / n)
        lows.append(low)
        highs.append(high)
    running.plot(xs, ys, color="#4a7ab5")
    running.fill_between(xs, lows, highs, alpha=0.25, color="#4a7ab5")
    running.axhline(0.5, color="grey", linestyle="--", linewidth=1)
    running.set_ylim(0, 1)
    running.set_xlabel("games")
    running.set_title("running win rate, 95% CI")
    figure.tight_layout()
    figure.savefig(path, dpi=100)
    plt.close(figure)
