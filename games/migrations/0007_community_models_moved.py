"""ChatMessage, Report and ModerationRecord now belong to the community app (its 0001 took
over their tables): state only, no table is dropped. ``moderate`` moves to Game."""

from django.db import migrations


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0006_snapshot_checkpoints"),
        ("community", "0001_initial"),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.DeleteModel(name="ModerationRecord"),
                migrations.DeleteModel(name="Report"),
                migrations.DeleteModel(name="ChatMessage"),
            ]
        ),
        migrations.AlterModelOptions(
            name="game",
            options={
                "ordering": ["-created_at"],
                "permissions": [
                    ("moderate", "Can moderate: hide, mute, kick, abort, ban, handle reports")
                ],
            },
        ),
    ]
