"""Mute now belongs to the community app (its 0001 took over the table): state only."""

from django.db import migrations


class Migration(migrations.Migration):
    dependencies = [
        ("players", "0001_initial"),
        ("community", "0001_initial"),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(state_operations=[migrations.DeleteModel(name="Mute")])
    ]
