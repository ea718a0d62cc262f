"""Audit games: hash chain, replay equals recorded state, re-execution with the seed."""

from __future__ import annotations

import json
from concurrent.futures import ProcessPoolExecutor

from django.core.management.base import BaseCommand, CommandError
from django.db import connections
from tqdm import tqdm

from games.exports import audit
from games.models import Game


def _audit_one(game_id: str) -> dict:
    # Each worker process opens its own database connection.
    return audit(Game.objects.get(pk=game_id)).as_json()


def _init_worker() -> None:
    import django

    django.setup()
    connections.close_all()


class Command(BaseCommand):
    help = "Verify a game's history (or every game with --all) and print a verdict per game."

    def add_arguments(self, parser) -> None:
        parser.add_argument("game_id", nargs="?")
        parser.add_argument("--all", action="store_true", help="audit every started game")
        parser.add_argument("--jobs", type=int, default=2, help="parallel processes for --all")
        parser.add_argument("--json", action="store_true", help="one JSON line per game")

    def handle(self, *args, **options) -> None:
        if options["all"]:
            ids = [str(i) for i in Game.objects.filter(head_seq__gt=0).values_list("id", flat=True)]
        elif options["game_id"]:
            if not Game.objects.filter(pk=options["game_id"]).exists():
                raise CommandError(f"no game {options['game_id']}")
            ids = [options["game_id"]]
        else:
            raise CommandError("give a game id or --all")
        verdicts = self._run(ids, options["jobs"] if options["all"] else 1)
        failed = [v for v in verdicts if not v["passed"]]
        for verdict in verdicts:
            if options["json"]:
                self.stdout.write(json.dumps(verdict))
            else:
                mark = "PASS" if verdict["passed"] else "FAIL"
                detail = "; ".join(verdict["problems"])
                reexec = verdict["reexecution_matches"]
                seed = "seed not revealed" if reexec is None else f"re-execution {reexec}"
                self.stdout.write(
                    f"{mark} {verdict['game']} chain={verdict['chain_intact']} "
                    f"replay={verdict['replay_matches']} {seed} {detail}".rstrip()
                )
        self.stdout.write(f"{len(verdicts) - len(failed)} passed, {len(failed)} failed")
        if failed:
            raise CommandError(f"{len(failed)} game(s) failed the audit")

    def _run(self, ids: list[str], jobs: int) -> list[dict]:
        if jobs <= 1 or len(ids) < 4:
            return [_audit_one(i) for i in tqdm(ids, desc="audit", disable=len(ids) < 2)]
        connections.close_all()
        with ProcessPoolExecutor(max_workers=jobs, initializer=_init_worker) as pool:
            return list(tqdm(pool.map(_audit_one, ids, chunksize=4), total=len(ids), desc="audit"))
