"""Events and snapshots lose their own index on ``game``: the unique (game, seq) index
serves every lookup by game, and each append maintains one index fewer.

Only the indexes are dropped. Django's AlterField would also drop and re-add the foreign
keys, and re-adding one checks every row of the log under a lock."""

import django.db.models.deletion
from django.db import migrations, models

INDEXES = {
    "games_gameevent": "games_gameevent_game_id_57c09de4",
    "games_snapshot": "games_snapshot_game_id_9fa1b8a5",
}


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0007_community_models_moved"),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.AlterField(
                    model_name="gameevent",
                    name="game",
                    field=models.ForeignKey(
                        db_index=False,
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="events",
                        to="games.game",
                    ),
                ),
                migrations.AlterField(
                    model_name="snapshot",
                    name="game",
                    field=models.ForeignKey(
                        db_index=False,
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="snapshots",
                        to="games.game",
                    ),
                ),
            ],
            database_operations=[
                migrations.RunSQL(
                    f'DROP INDEX IF EXISTS "{index}"',
                    reverse_sql=f'CREATE INDEX IF NOT EXISTS "{index}" ON "{table}" ("game_id")',
                )
                for table, index in INDEXES.items()
            ],
        ),
    ]
