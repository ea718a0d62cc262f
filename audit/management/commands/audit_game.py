"""Audit games: the fields against the log, hash chain, replay equals recorded state
(every snapshot, the final one too), re-execution with the seed, and the server's
signed checkpoints against the keys it publishes."""

from __future__ import annotations

import json
import sys
from collections.abc import Iterator
from concurrent.futures import Future, ProcessPoolExecutor
from typing import Any

from django.core.management.base import BaseCommand, CommandError
from tqdm import tqdm

from audit.exports import started_game
from audit.stored import audit_case
from audit.verification import verify_case
from games.models import Game

# Below this many games, starting worker processes costs more than it saves.
PARALLEL_FROM = 4


class Command(BaseCommand):
    help = "Verify a game's history (or every game with --all) and print a verdict per game."

    def add_arguments(self, parser) -> None:
        parser.add_argument("game_id", nargs="?")
        parser.add_argument("--all", action="store_true", help="audit every started game")
        parser.add_argument("--jobs", type=int, default=2, help="parallel processes for --all")
        parser.add_argument("--json", action="store_true", help="one JSON line per game")
        parser.add_argument(
            "--no-progress", action="store_true", help="no progress bar (on stderr)"
        )

    def handle(self, *args: Any, **options: Any) -> None:
        if options["all"]:
            ids = [str(i) for i in Game.objects.filter(head_seq__gt=0).values_list("id", flat=True)]
        elif options["game_id"]:
            ids = [str(started_game(options["game_id"], "audit").id)]
        else:
            raise CommandError("give a game id or --all")
        jobs = options["jobs"] if options["all"] else 1
        verdicts = []
        # The bar shows whenever there is more than one game (tqdm writes to stderr).
        quiet = options["no_progress"] or len(ids) < 2
        with tqdm(total=len(ids), desc="audit", unit="game", file=sys.stderr, disable=quiet) as bar:
            for verdict in self._verdicts(ids, jobs):
                verdicts.append(verdict)
                bar.update()
        failed = [v for v in verdicts if not v["passed"]]
        for verdict in verdicts:
            self.stdout.write(json.dumps(verdict) if options["json"] else _line(verdict))
        self.stdout.write(f"{len(verdicts) - len(failed)} passed, {len(failed)} failed")
        if failed:
            raise CommandError(f"{len(failed)} game(s) failed the audit")

    def _verdicts(self, ids: list[str], jobs: int) -> Iterator[dict[str, Any]]:
        """Verdicts in the order of ``ids``. In parallel, this process reads each game
        and the workers only verify (pure code), so no worker opens a database
        connection: any database works, a test's in-memory SQLite included."""
        if jobs <= 1 or len(ids) < PARALLEL_FROM:
            for game_id in ids:
                yield verify_case(audit_case(Game.objects.get(pk=game_id)))
            return
        with ProcessPoolExecutor(max_workers=jobs) as pool:
            # A few games in flight per worker: memory stays bounded on a large database.
            pending: list[Future] = []
            for game_id in ids:
                pending.append(pool.submit(verify_case, audit_case(Game.objects.get(pk=game_id))))
                if len(pending) >= 2 * jobs:
                    yield pending.pop(0).result()
            for future in pending:
                yield future.result()


def _line(verdict: dict[str, Any]) -> str:
    mark = "PASS" if verdict["passed"] else "FAIL"
    reexec = verdict["reexecution_matches"]
    seed = "seed not revealed" if reexec is None else f"re-execution={reexec}"
    final = verdict["final_state_matches"]
    final_state = "final state: no snapshot" if final is None else f"final_state={final}"
    signed = verdict["signatures_valid"]
    signatures = "nothing signed yet" if signed is None else f"signatures={signed}"
    return (
        f"{mark} {verdict['game']} chain={verdict['chain_intact']} "
        f"fields={verdict['fields_match']} replay={verdict['replay_matches']} "
        f"{final_state} {seed} {signatures} {'; '.join(verdict['problems'])}"
    ).rstrip()
