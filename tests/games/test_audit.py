"""Auditing: the hash chain, replay against snapshots, re-execution with the seed,
exports verified without a database, and tampering detected."""

from __future__ import annotations

import copy
import json

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError
from django.db import connection

from games import services
from games.exports import audit, export_game, verify_export
from games.models import Game, GameEvent
from tests.conftest import ON_POSTGRES
from tests.games.helpers import table_with_bots

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def finished_game(make_user, settings) -> Game:
    settings.SNAPSHOT_EVERY = 20  # several snapshots to check the replay against
    user = make_user()
    game = table_with_bots(user, bots=3, join=False, level="easy")
    services.game_start(game_id=game.id, user=user)
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED
    return game


def test_a_finished_game_passes_every_check(finished_game):
    verdict = audit(finished_game)
    assert verdict.passed, verdict.problems
    assert verdict.chain_intact and verdict.replay_matches and verdict.reexecution_matches


def test_a_game_in_progress_is_audited_without_the_seed(make_user):
    user = make_user()
    game = table_with_bots(user, bots=1)
    services.game_start(game_id=game.id, user=user)
    verdict = audit(Game.objects.get(pk=game.id))
    assert verdict.passed and verdict.reexecution_matches is None


def test_export_verifies_without_the_database(finished_game):
    document = json.loads(json.dumps(export_game(finished_game)))
    assert document["seed"] == finished_game.seed
    assert verify_export(document).passed


@pytest.mark.parametrize("field", ["public", "actor", "recorded_at", "command", "private"])
def test_flipping_one_field_of_an_export_fails_and_names_the_event(finished_game, field):
    document = json.loads(json.dumps(export_game(finished_game)))
    tampered = copy.deepcopy(document)
    victim = next(e for e in tampered["events"][5:] if e[field])
    if field == "public" or field == "command" or field == "private":
        victim[field] = {**victim[field], "x": 1}
    else:
        victim[field] = victim[field] + "x"
    verdict = verify_export(tampered)
    assert not verdict.passed
    assert f"event {victim['seq']}" in " ".join(verdict.problems)


def test_a_changed_seed_fails_the_commitment(finished_game):
    document = json.loads(json.dumps(export_game(finished_game)))
    document["seed"] = "0" * 64
    verdict = verify_export(document)
    assert verdict.reexecution_matches is False


def test_audit_game_command_prints_a_verdict(finished_game, capsys):
    call_command("audit_game", str(finished_game.id))
    out = capsys.readouterr().out
    assert f"PASS {finished_game.id}" in out and "1 passed, 0 failed" in out


def test_audit_game_all_covers_every_started_game(finished_game, make_user, capsys):
    call_command("audit_game", "--all", "--jobs", "1")
    assert "1 passed, 0 failed" in capsys.readouterr().out


def test_export_and_verify_export_commands_round_trip(finished_game, tmp_path, capsys):
    call_command("export_game", str(finished_game.id))
    path = tmp_path / "game.json"
    path.write_text(capsys.readouterr().out)
    call_command("verify_export", str(path))
    assert '"passed": true' in capsys.readouterr().out
    document = json.loads(path.read_text())
    document["events"][3]["public"]["tampered"] = True
    path.write_text(json.dumps(document))
    with pytest.raises(CommandError, match="event 4"):
        call_command("verify_export", str(path))


def test_tampering_with_a_stored_event_row_is_detected(finished_game):
    row = GameEvent.objects.filter(game=finished_game).order_by("seq")[10]
    with connection.cursor() as cursor:
        if ON_POSTGRES:
            cursor.execute("ALTER TABLE games_gameevent DISABLE TRIGGER games_event_append_only")
        cursor.execute("UPDATE games_gameevent SET actor = %s WHERE id = %s", ["seat:9", row.id])
        if ON_POSTGRES:
            cursor.execute("ALTER TABLE games_gameevent ENABLE TRIGGER games_event_append_only")
    verdict = audit(finished_game)
    assert not verdict.chain_intact
    assert f"event {row.seq}" in verdict.problems[0]
    with pytest.raises(CommandError):
        call_command("audit_game", str(finished_game.id))
