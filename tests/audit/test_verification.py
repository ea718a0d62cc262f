"""Auditing: the hash chain, the fields outside it, replay against snapshots (the final
one too), re-execution with the seed, exports verified without a database, and
tampering detected.

Tests marked ``db`` use the database. The others verify one export made once for the
module and run with pytest-django's database block in place: any query they made would
raise, which is what shows that verifying an export needs no database.
"""

from __future__ import annotations

import copy
import json
import os
import subprocess
import sys
import uuid
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.core.management.base import CommandError
from django.db import connection
from django.test import override_settings

from audit.exports import export_game, verify_export
from audit.management.commands import audit_game as audit_game_command
from audit.stored import audit_game
from audit.verification import EXPORT_FIELDS, RECORD_FIELDS
from games import services
from games.chain import GENESIS, record_hash
from games.models import Game, GameEvent, Snapshot
from games.store import state_cache
from tests.conftest import ON_POSTGRES
from tests.games.helpers import humans_table, make_moderator, play_out, table_with_bots
from tests.games.tampering import triggers_disabled

db = pytest.mark.django_db(transaction=True)
ROOT = Path(__file__).resolve().parents[2]


def played_out_game(user) -> Game:
    """Three easy bots play a whole game (each command through the services)."""
    game = table_with_bots(user, bots=3, join=False, level="easy")
    services.game_start(game_id=game.id, user=user)
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED
    return game


@pytest.fixture(scope="module")
def exported(django_db_setup, django_db_blocker) -> dict:
    """The JSON export of one played-out game, made once for the module's export tests."""
    in_process = {
        "BOT_RUNNER": "inline",
        "BOT_MOVE_DELAY": 0,
        "CHANNEL_LAYERS": {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}},
    }
    with django_db_blocker.unblock(), override_settings(**in_process):
        state_cache.clear()
        try:
            user = get_user_model().objects.create_user(username="exporter", password="pw-1234567")
            document = json.loads(json.dumps(export_game(played_out_game(user))))
        finally:
            # Leave the database empty, as the transactional tests expect to find it.
            call_command("flush", interactive=False, verbosity=0)
            state_cache.clear()
    return document


@pytest.fixture
def document(exported) -> dict:
    return copy.deepcopy(exported)


def problems(verdict) -> str:
    return " | ".join(verdict.problems)


@pytest.fixture
def finished_game(make_user, settings) -> Game:
    settings.SNAPSHOT_EVERY = 20  # several snapshots to check the replay against
    return played_out_game(make_user())


@pytest.fixture
def players(make_user) -> list:
    return [make_user("ana"), make_user("bo")]


def resigned_game(players) -> Game:
    """A cheap finished game: two players, the second resigns at once."""
    game = humans_table(players)
    services.game_resign(game_id=game.id, user=players[1])
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED
    return game


def aborted_game(players) -> Game:
    game = humans_table(players)
    moderator = make_moderator(players[0])
    services.game_abort(game_id=game.id, staff_user=moderator, reason="test")
    game.refresh_from_db()
    assert game.status == Game.Status.ABORTED
    return game


def game_in_progress(players) -> Game:
    return play_out(humans_table(players), players, moves=2)


def tamper_final_snapshot(game: Game) -> None:
    snapshot = Snapshot.objects.get(game=game, seq=game.head_seq)
    snapshot.state["resigned"] = [*snapshot.state["resigned"], 7]
    with triggers_disabled("games_snapshot"):  # snapshots are append-only too
        snapshot.save(update_fields=["state"])


# ---- stored games ---------------------------------------------------------------------
@db
def test_a_finished_game_passes_every_check(finished_game):
    verdict = audit_game(finished_game)
    assert verdict.passed, verdict.problems
    assert verdict.chain_intact and verdict.fields_match and verdict.replay_matches
    assert verdict.final_state_matches is True and verdict.reexecution_matches is True


@db
def test_a_game_in_progress_is_audited_without_the_seed(players):
    verdict = audit_game(game_in_progress(players))
    assert verdict.passed, verdict.problems
    assert verdict.reexecution_matches is None and verdict.final_state_matches is None


@db
def test_an_aborted_game_is_reexecuted_and_matches_its_final_snapshot(players):
    verdict = audit_game(aborted_game(players))
    assert verdict.passed, verdict.problems
    assert verdict.reexecution_matches is True and verdict.final_state_matches is True


@db
def test_tampering_with_the_final_snapshot_fails_the_audit_and_names_it(players, capsys):
    game = resigned_game(players)
    tamper_final_snapshot(game)
    verdict = audit_game(game)
    assert not verdict.passed and verdict.final_state_matches is False
    assert f"final snapshot at event {game.head_seq}" in problems(verdict)
    with pytest.raises(CommandError):
        call_command("audit_game", str(game.id))
    assert "final_state=False" in capsys.readouterr().out


@db
@pytest.mark.parametrize(
    ("field", "value"),
    [("status", "aborted"), ("options", {"x": 1}), ("seed_commitment", "0" * 64)],
)
def test_tampering_with_a_stored_game_field_is_detected_and_named(players, field, value):
    game = resigned_game(players)
    Game.objects.filter(pk=game.pk).update(**{field: value})
    verdict = audit_game(Game.objects.get(pk=game.pk))
    assert not verdict.passed and not verdict.fields_match
    assert f"'{field}'" in problems(verdict)


@db
def test_tampering_with_a_stored_event_row_is_detected(players):
    game = resigned_game(players)
    row = GameEvent.objects.filter(game=game).order_by("seq")[game.head_seq // 2]
    with connection.cursor() as cursor:
        if ON_POSTGRES:
            cursor.execute("ALTER TABLE games_gameevent DISABLE TRIGGER games_event_append_only")
        cursor.execute("UPDATE games_gameevent SET actor = %s WHERE id = %s", ["seat:9", row.id])
        if ON_POSTGRES:
            cursor.execute("ALTER TABLE games_gameevent ENABLE TRIGGER games_event_append_only")
    verdict = audit_game(game)
    assert not verdict.chain_intact
    assert f"event {row.seq}" in verdict.problems[0]
    with pytest.raises(CommandError):
        call_command("audit_game", str(game.id))


# ---- the audit_game command -----------------------------------------------------------
@db
def test_audit_game_command_prints_a_verdict(players, capsys):
    game = resigned_game(players)
    call_command("audit_game", str(game.id))
    out = capsys.readouterr().out
    assert f"PASS {game.id} chain=True fields=True replay=True final_state=True" in out
    assert "re-execution=True" in out and "1 passed, 0 failed" in out


@db
def test_auditing_or_exporting_a_table_that_has_not_started_is_refused(players):
    game = services.table_create(user=players[0], ruleset="kingdoms", seats=2, options={})
    with pytest.raises(CommandError, match="has not started"):
        call_command("audit_game", str(game.id))
    with pytest.raises(CommandError, match="has not started"):
        call_command("export_game", str(game.id))
    with pytest.raises(CommandError, match="no game"):
        call_command("audit_game", "not-a-game-id")


class RecordingPool(ProcessPoolExecutor):
    """The real process pool, noting each pool made (so a test sees the path taken)."""

    made: list[int] = []

    def __init__(self, max_workers: int, **kwargs) -> None:
        RecordingPool.made.append(max_workers)
        super().__init__(max_workers=max_workers, **kwargs)


@db
def test_audit_game_all_audits_in_worker_processes_with_a_progress_bar(
    make_user, players, capsys, monkeypatch
):
    """The workers get each game's records from this process and never touch the
    database, so this runs on pytest's in-memory SQLite as well as on PostgreSQL."""
    monkeypatch.setattr(audit_game_command, "ProcessPoolExecutor", RecordingPool)
    RecordingPool.made = []
    more = [make_user("cy"), make_user("di")]
    over = [resigned_game(players), aborted_game(more)]
    going = [game_in_progress([make_user(f"p{i}a"), make_user(f"p{i}b")]) for i in range(3)]
    services.table_create(user=players[0], ruleset="kingdoms", seats=2, options={})  # no log
    call_command("audit_game", "--all", "--jobs", "2")
    captured = capsys.readouterr()
    assert RecordingPool.made == [2], "five games and two jobs use the worker processes"
    assert "5 passed, 0 failed" in captured.out
    lines = {line.split()[1]: line for line in captured.out.splitlines() if line[:4] == "PASS"}
    assert set(lines) == {str(g.id) for g in over + going}
    for game in over:
        assert "final_state=True re-execution=True" in lines[str(game.id)]
    for game in going:
        assert "seed not revealed" in lines[str(game.id)]
    assert "audit: 100%" in captured.err and "5/5" in captured.err


@db
def test_audit_game_all_in_parallel_fails_the_tampered_game_and_passes_the_others(
    make_user, capsys
):
    games = [resigned_game([make_user(f"u{i}a"), make_user(f"u{i}b")]) for i in range(4)]
    tamper_final_snapshot(games[2])
    with pytest.raises(CommandError, match="1 game"):
        call_command("audit_game", "--all", "--jobs", "2", "--json", "--no-progress")
    captured = capsys.readouterr()
    verdicts = {v["game"]: v for v in map(json.loads, captured.out.splitlines()[:-1])}
    assert captured.out.splitlines()[-1] == "3 passed, 1 failed"
    assert [verdicts[str(g.id)]["passed"] for g in games] == [True, True, False, True]
    assert "final snapshot" in " ".join(verdicts[str(games[2].id)]["problems"])
    assert "audit" not in captured.err, "--no-progress hides the bar"


@db
def test_export_and_verify_export_commands_round_trip(players, tmp_path, capsys):
    game = resigned_game(players)
    call_command("export_game", str(game.id))
    path = tmp_path / "game.json"
    path.write_text(capsys.readouterr().out)
    call_command("verify_export", str(path))
    assert '"passed": true' in capsys.readouterr().out
    document = json.loads(path.read_text())
    document["events"][1]["public"]["tampered"] = True
    path.write_text(json.dumps(document))
    with pytest.raises(CommandError, match="event 2"):
        call_command("verify_export", str(path))


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
