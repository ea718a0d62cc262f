"""Auditing stored games: the hash chain, the fields outside it, replay against snapshots
(the final one too), re-execution with the seed, and tampering detected."""

from __future__ import annotations

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError
from django.db import connection

from audit.stored import audit_game
from games.models import Game, GameEvent
from tests.audit.helpers import (
    aborted_game,
    game_in_progress,
    problems,
    resigned_game,
    tamper_final_snapshot,
)
from tests.conftest import ON_POSTGRES

db = pytest.mark.django_db(transaction=True)


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
