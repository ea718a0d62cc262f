"""The community models take over tables that games and players created (no data moves).

State only: ChatMessage, Report and ModerationRecord were created by games 0003, Mute by
players 0001; games 0007 and players 0002 drop them from their own state. The content
types follow the models (admin log entries and the models' permissions keep pointing at
them), and the ``moderate`` permission moves to games.Game so it stays ``games.moderate``.
"""

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models

MOVED = {"chatmessage": "games", "report": "games", "moderationrecord": "games", "mute": "players"}


def _content_types(apps, schema_editor, forward: bool) -> None:
    ContentType = apps.get_model("contenttypes", "ContentType")
    Permission = apps.get_model("auth", "Permission")
    types = ContentType.objects.db_manager(schema_editor.connection.alias)
    permissions = Permission.objects.db_manager(schema_editor.connection.alias)
    record = ("games" if forward else "community", "moderationrecord")
    game, _ = types.get_or_create(app_label="games", model="game")
    if forward:
        moderate = permissions.filter(
            codename="moderate", content_type__app_label=record[0], content_type__model=record[1]
        )
        if not permissions.filter(codename="moderate", content_type=game).exists():
            moderate.update(content_type=game)
    for model, old in MOVED.items():
        source, target = (old, "community") if forward else ("community", old)
        # A database where post_migrate already made the new type keeps both: nothing
        # points at the new one yet that the old one would have to take over.
        if not types.filter(app_label=target, model=model).exists():
            types.filter(app_label=source, model=model).update(app_label=target)
    if not forward:
        moderate = permissions.filter(codename="moderate", content_type=game)
        back = types.filter(app_label="games", model="moderationrecord").first()
        if back is not None:
            moderate.update(content_type=back)


def forwards(apps, schema_editor):
    _content_types(apps, schema_editor, forward=True)


def backwards(apps, schema_editor):
    _content_types(apps, schema_editor, forward=False)


ACTIONS = [
    ("hide_message", "hid a chat message"),
    ("mute", "muted a player"),
    ("unmute", "lifted a mute"),
    ("kick", "removed a player from a table"),
    ("abort", "aborted a game"),
    ("ban", "banned an account"),
    ("unban", "lifted a ban"),
    ("resolve_report", "resolved a report"),
    ("dismiss_report", "dismissed a report"),
    ("disconnect", "closed a game's live connections"),
    ("host_action", "acted as another table's host"),
]


class Migration(migrations.Migration):
    initial = True

    dependencies = [
        ("games", "0006_snapshot_checkpoints"),
        ("players", "0001_initial"),
        ("contenttypes", "0002_remove_content_type_name"),
        ("auth", "0012_alter_user_first_name_max_length"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    state_operations = [
        migrations.CreateModel(
            name="ChatMessage",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                ("body", models.CharField(max_length=500)),
                ("created_at", models.DateTimeField(auto_now_add=True, db_index=True)),
                ("hidden", models.BooleanField(default=False)),
                (
                    "author",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE,
                        to=settings.AUTH_USER_MODEL,
                    ),
                ),
                (
                    "game",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="chat",
                        to="games.game",
                    ),
                ),
            ],
            options={"db_table": "games_chatmessage", "ordering": ["game", "created_at", "id"]},
        ),
        migrations.CreateModel(
            name="Report",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                ("reason", models.CharField(blank=True, max_length=500)),
                (
                    "status",
                    models.CharField(
                        choices=[
                            ("open", "open"),
                            ("resolved", "resolved"),
                            ("dismissed", "dismissed"),
                        ],
                        default="open",
                        max_length=10,
                    ),
                ),
                ("created_at", models.DateTimeField(auto_now_add=True)),
                ("handled_at", models.DateTimeField(blank=True, null=True)),
                ("note", models.CharField(blank=True, max_length=500)),
                (
                    "handled_by",
                    models.ForeignKey(
                        blank=True,
                        null=True,
                        on_delete=django.db.models.deletion.SET_NULL,
                        related_name="reports_handled",
                        to=settings.AUTH_USER_MODEL,
                    ),
                ),
                (
                    "message",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="reports",
                        to="community.chatmessage",
                    ),
                ),
                (
                    "reporter",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="reports_made",
                        to=settings.AUTH_USER_MODEL,
                    ),
                ),
            ],
            options={
                "db_table": "games_report",
                "ordering": ["status", "created_at"],
                "constraints": [
                    models.UniqueConstraint(
                        condition=models.Q(("status", "open")),
                        fields=("message", "reporter"),
                        name="one_open_report_per_reporter",
                    )
                ],
            },
        ),
        migrations.CreateModel(
            name="ModerationRecord",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                ("action", models.CharField(choices=ACTIONS, max_length=20)),
                ("moderator_name", models.CharField(max_length=150)),
                ("reason", models.CharField(blank=True, max_length=500)),
                ("event_seq", models.PositiveIntegerField(blank=True, null=True)),
                ("created_at", models.DateTimeField(auto_now_add=True, db_index=True)),
                (
                    "game",
                    models.ForeignKey(
                        blank=True,
                        null=True,
                        on_delete=django.db.models.deletion.SET_NULL,
                        related_name="moderation",
                        to="games.game",
                    ),
                ),
                (
                    "message",
                    models.ForeignKey(
                        blank=True,
                        null=True,
                        on_delete=django.db.models.deletion.SET_NULL,
                        to="community.chatmessage",
                    ),
                ),
                (
                    "moderator",
                    models.ForeignKey(
                        null=True,
                        on_delete=django.db.models.deletion.SET_NULL,
                        related_name="moderation_done",
                        to=settings.AUTH_USER_MODEL,
                    ),
                ),
                (
                    "target_user",
                    models.ForeignKey(
                        blank=True,
                        null=True,
                        on_delete=django.db.models.deletion.SET_NULL,
                        related_name="moderation_received",
                        to=settings.AUTH_USER_MODEL,
                    ),
                ),
                (
                    "report",
                    models.ForeignKey(
                        blank=True,
                        null=True,
                        on_delete=django.db.models.deletion.SET_NULL,
                        to="community.report",
                    ),
                ),
            ],
            options={"db_table": "games_moderationrecord", "ordering": ["-created_at", "-id"]},
        ),
        migrations.CreateModel(
            name="Mute",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                ("until", models.DateTimeField(blank=True, null=True)),
                ("lifted_at", models.DateTimeField(blank=True, null=True)),
                ("reason", models.CharField(blank=True, max_length=500)),
                ("created_at", models.DateTimeField(auto_now_add=True)),
                (
                    "created_by",
                    models.ForeignKey(
                        null=True,
                        on_delete=django.db.models.deletion.SET_NULL,
                        related_name="+",
                        to=settings.AUTH_USER_MODEL,
                    ),
                ),
                (
                    "user",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="mutes",
                        to=settings.AUTH_USER_MODEL,
                    ),
                ),
            ],
            options={"db_table": "players_mute", "ordering": ["-created_at"]},
        ),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(state_operations=state_operations),
        migrations.RunPython(forwards, backwards),
    ]
