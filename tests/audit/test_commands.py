"""The audit_game, export_game and verify_export commands."""

from __future__ import annotations

import json
from concurrent.futures import ProcessPoolExecutor

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from audit.management.commands import audit_game as audit_game_command
from games import services
from tests.audit.helpers import (
    aborted_game,
    game_in_progress,
    resigned_game,
    tamper_final_snapshot,
)

db = pytest.mark.django_db(transaction=True)


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
