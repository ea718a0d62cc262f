"""Exports verified without a database, and tampering with them detected.

These tests verify one export made once for the module and run with pytest-django's
database block in place: any query they made would raise, which is what shows that
verifying an export needs no database.
"""

from __future__ import annotations

import copy
import json
import os
import subprocess
import sys
import uuid
from pathlib import Path

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.core.management.base import CommandError
from django.test import override_settings

from audit.exports import export_game, verify_export
from audit.verification import EXPORT_FIELDS, RECORD_FIELDS
from games.models import Game
from games.storage import heads
from games.storage.chain import GENESIS, record_hash
from tests.audit.helpers import played_out_game, problems

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def exported(django_db_setup, django_db_blocker) -> dict:
    """The JSON export of one played-out game, made once for the module's export tests."""
    in_process = {
        "BOT_RUNNER": "inline",
        "BOT_MOVE_DELAY": 0,
        "CHANNEL_LAYERS": {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}},
    }
    with django_db_blocker.unblock(), override_settings(**in_process):
        heads.clear()
        try:
            user = get_user_model().objects.create_user(username="exporter", password="pw-1234567")
            document = json.loads(json.dumps(export_game(played_out_game(user))))
        finally:
            # Leave the database empty, as the transactional tests expect to find it.
            call_command("flush", interactive=False, verbosity=0)
            heads.clear()
    return document


@pytest.fixture
def document(exported) -> dict:
    return copy.deepcopy(exported)


# ---- exports, verified with the database blocked --------------------------------------
def test_the_export_tests_really_run_without_a_database():
    with pytest.raises(RuntimeError, match="Database access not allowed"):
        Game.objects.count()


def test_an_export_verifies_every_check_without_the_database(document):
    assert document["status"] == "finished" and document["seed"]
    verdict = verify_export(document)
    assert verdict.passed, verdict.problems
    assert verdict.fields_match and verdict.reexecution_matches is True


def test_verify_export_command_reads_a_file_without_the_database(document, tmp_path, capsys):
    path = tmp_path / "game.json"
    path.write_text(json.dumps(document))
    call_command("verify_export", str(path))
    assert json.loads(capsys.readouterr().out)["passed"] is True


def test_verify_export_runs_where_no_database_can_be_reached(document, tmp_path):
    """The command line itself, with a database URL that refuses every connection."""
    path = tmp_path / "game.json"
    path.write_text(json.dumps(document))
    env = {**os.environ, "DATABASE_URL": "postgres://nobody@127.0.0.1:9/none"}
    env.pop("REDIS_URL", None)

    def run() -> subprocess.CompletedProcess:
        command = [sys.executable, "manage.py", "verify_export", str(path)]
        return subprocess.run(command, cwd=ROOT, env=env, capture_output=True, text=True)

    passed = run()
    assert passed.returncode == 0, passed.stderr
    assert json.loads(passed.stdout)["passed"] is True
    document["options"] = {"tampered": True}
    path.write_text(json.dumps(document))
    failed = run()
    assert failed.returncode != 0 and "top-level field 'options'" in failed.stderr


def changed(field: str, value):
    """A different value of the same kind as ``value``."""
    if field == "outcome":
        value = copy.deepcopy(value)
        first = next(iter(value["scores"]))
        value["scores"][first] += 1
        return value
    if field == "game":
        return str(uuid.uuid4())
    if field == "ruleset":
        return "kingdom-builder"
    if field == "status":
        return "aborted"
    if isinstance(value, dict):
        return {**value, "x": 1}
    return value + "0"


@pytest.mark.parametrize("field", [f for f in EXPORT_FIELDS if f != "events"])
def test_flipping_a_top_level_field_fails_and_names_the_field(document, field):
    document[field] = changed(field, document[field])
    verdict = verify_export(document)
    assert not verdict.passed and not verdict.fields_match
    assert f"top-level field '{field}'" in problems(verdict)


def test_a_value_written_with_other_bytes_fails_even_if_python_finds_it_equal(document):
    first = next(iter(document["outcome"]["scores"]))
    document["outcome"]["scores"][first] = float(document["outcome"]["scores"][first])
    verdict = verify_export(document)
    assert not verdict.passed and "top-level field 'outcome'" in problems(verdict)


@pytest.mark.parametrize("field", ["seed", "outcome"])
def test_a_finished_game_exported_with_a_null_field_fails(document, field):
    document[field] = None
    verdict = verify_export(document)
    assert not verdict.passed
    assert f"top-level field '{field}' is null" in problems(verdict)
    if field == "seed":
        assert verdict.reexecution_matches is False, "a game that is over is re-executed"


def test_a_changed_seed_fails_the_commitment(document):
    document["seed"] = "0" * 64
    verdict = verify_export(document)
    assert verdict.reexecution_matches is False
    assert "does not match the published commitment" in problems(verdict)


@pytest.mark.parametrize("field", EXPORT_FIELDS)
def test_a_missing_top_level_field_fails_with_a_reason(document, field):
    del document[field]
    verdict = verify_export(document)
    assert not verdict.passed
    assert f"missing top-level field '{field}'" in problems(verdict)


def test_an_added_top_level_field_fails_and_names_it(document):
    document["comment"] = "verified by me"
    verdict = verify_export(document)
    assert not verdict.passed and "unexpected top-level field 'comment'" in problems(verdict)


@pytest.mark.parametrize(
    "mangle",
    [
        lambda d: d["events"].clear(),
        lambda d: d.update(events="none"),
        lambda d: d["events"].__setitem__(3, "an event"),
        lambda d: d["events"][3].pop("actor"),
        lambda d: d["events"][3].update(note="x"),
        lambda d: d["events"][0].update(public=None),
    ],
    ids=["no events", "events not a list", "event not an object", "missing", "added", "null"],
)
def test_a_malformed_export_fails_with_a_reason_not_an_exception(document, mangle, tmp_path):
    mangle(document)
    verdict = verify_export(document)
    assert not verdict.passed and verdict.problems
    path = tmp_path / "game.json"
    path.write_text(json.dumps(document))
    with pytest.raises(CommandError, match="verification failed"):
        call_command("verify_export", str(path))


def test_an_export_that_is_not_a_json_object_fails_with_a_reason(tmp_path):
    assert verify_export([]).problems == ["the export is not a JSON object"]
    path = tmp_path / "game.json"
    path.write_bytes(b"\xff not json")
    with pytest.raises(CommandError, match="cannot read"):
        call_command("verify_export", str(path))


def flipped(field: str, value):
    if field == "seq":
        return value + 100
    if isinstance(value, dict):
        return {**value, "x": 1}
    return value + "x"


@pytest.mark.parametrize("field", sorted(RECORD_FIELDS))
def test_flipping_one_field_of_an_event_fails_and_names_the_event(document, field):
    victim = next(e for e in document["events"][5:] if e[field])
    seq = victim["seq"]
    victim[field] = flipped(field, victim[field])
    verdict = verify_export(document)
    assert not verdict.passed and not verdict.chain_intact
    named = f"expected seq {seq}" if field == "seq" else f"hash chain broken at event {seq}:"
    assert named in problems(verdict)


def test_a_changed_event_with_a_recomputed_chain_fails_reexecution_and_names_it(document):
    """Rewriting every hash after a change keeps the chain intact; re-running the
    commands with the revealed seed still finds the changed event."""
    victim = next(e for e in document["events"][5:] if e["command"] and e["public"])
    victim["public"] = {**victim["public"], "x": 1}
    prev = GENESIS
    for record in document["events"]:
        record["prev_hash"] = prev
        record["hash"] = prev = record_hash(record)
    verdict = verify_export(document)
    assert verdict.chain_intact and not verdict.passed
    assert verdict.reexecution_matches is False
    assert f"event {victim['seq']}" in problems(verdict)
