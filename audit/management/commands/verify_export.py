"""Verify an exported game file without the database: any changed byte is found.

Every top-level field is compared with the hash-chained events, a game that is over must
reveal its seed (and is then re-executed), and a malformed file fails with a reason.
The server's signed checkpoints are checked against the keys given with ``--keys`` (the
JSON of ``GET /api/keys/`` saved to a file, or one base64 public key), or against the
export's own keys whose id is pinned with ``--key-id``: without either, a forger's own
key would do, so the command says which key ids it took from the file itself.
"""

from __future__ import annotations

import json
from typing import Any

from django.core.management.base import BaseCommand, CommandError

from audit.exports import verify_export
from games.storage.signing import keys_from_text


class Command(BaseCommand):
    help = (
        "Verify game.json from export_game: fields, hash chain, replay, re-execution and "
        "the server's signatures (--keys keys.json from /api/keys/, or --key-id ID)."
    )

    def add_arguments(self, parser) -> None:
        parser.add_argument("path")
        parser.add_argument("--keys", help="the JSON of /api/keys/, or one base64 public key")
        parser.add_argument(
            "--key-id", action="append", help="trust the export's own key with this id"
        )

    def handle(self, *args: Any, **options: Any) -> None:
        document = _read_json(options["path"])
        keys = None
        if options["keys"]:
            try:
                with open(options["keys"], encoding="utf-8") as handle:
                    keys = keys_from_text(handle.read())
            except (OSError, ValueError, KeyError, TypeError) as exc:
                raise CommandError(f"cannot read the keys in {options['keys']}: {exc}") from exc
        pinned = set(options["key_id"]) if options["key_id"] else None
        verdict = verify_export(document, keys=keys, pinned=pinned)
        self.stdout.write(json.dumps(verdict.as_json(), indent=1))
        if keys is None and pinned is None and verdict.signed_by:
            self.stderr.write(
                "signatures checked against the export's own key(s) "
                f"{', '.join(verdict.signed_by)}: compare them with GET /api/keys/, or pass "
                "--keys or --key-id"
            )
        if not verdict.passed:
            raise CommandError("verification failed: " + "; ".join(verdict.problems))


def _read_json(path: str) -> Any:
    try:
        with open(path, encoding="utf-8") as handle:
            return json.load(handle)
    except (OSError, ValueError) as exc:  # ValueError: not JSON, or not UTF-8
        raise CommandError(f"cannot read {path}: {exc}") from exc
