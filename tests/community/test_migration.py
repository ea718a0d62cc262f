"""The community models took over the tables of games and players: migrating an existing
database keeps every chat line, report and mute (community/migrations/0001_initial.py)."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import Permission
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

from community.models import ChatMessage, ModerationRecord, Mute, Report

pytestmark = pytest.mark.django_db(transaction=True)

# The state just before the models moved: community not yet there (its 0001, and games
# 0007 and players 0002 that depend on it, unapplied).
BEFORE = [("community", None)]
OLD_NODES = [("games", "0006_snapshot_checkpoints"), ("players", "0001_initial")]


def _migrate(targets: list[tuple[str, str | None]]) -> None:
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(targets)


def _leaves() -> list[tuple[str, str]]:
    return MigrationExecutor(connection).loader.graph.leaf_nodes()


def test_chat_reports_and_mutes_survive_the_move_to_community():
    leaves = _leaves()
    moderate = Permission.objects.get(codename="moderate")
    _migrate(BEFORE)
    try:
        old = MigrationExecutor(connection).loader.project_state(OLD_NODES).apps
        User = old.get_model("auth", "User")
        Game = old.get_model("games", "Game")
        ana = User.objects.create(username="ana")
        bea = User.objects.create(username="bea")
        game = Game.objects.create(ruleset="kingdom_builder", ruleset_version="1", seats_wanted=2)
        line = old.get_model("games", "ChatMessage").objects.create(
            game=game, author=ana, body="well played"
        )
        report = old.get_model("games", "Report").objects.create(
            message=line, reporter=bea, reason="sarcasm"
        )
        record = old.get_model("games", "ModerationRecord").objects.create(
            action="hide_message", moderator=bea, moderator_name="bea", message=line, game=game
        )
        mute = old.get_model("players", "Mute").objects.create(user=ana, reason="spam")
    finally:
        _migrate(leaves)

    line_now = ChatMessage.objects.get(pk=line.pk)
    assert (line_now.game_id, line_now.author.username, line_now.body) == (
        game.pk,
        "ana",
        "well played",
    )
    report_now = Report.objects.get(pk=report.pk)
    assert (report_now.message, report_now.reporter.username) == (line_now, "bea")
    assert report_now.status == Report.Status.OPEN
    assert ModerationRecord.objects.get(pk=record.pk).message == line_now
    assert list(line_now.reports.all()) == [report_now]
    assert Mute.objects.get(pk=mute.pk).user.username == "ana"
    assert list(Mute.active().filter(user_id=ana.pk).values_list("reason", flat=True)) == ["spam"]
    # The permission moderators hold is the same row, still "games.moderate".
    moderate_now = Permission.objects.get(codename="moderate")
    assert moderate_now.pk == moderate.pk
    assert (moderate_now.content_type.app_label, moderate_now.content_type.model) == (
        "games",
        "game",
    )
