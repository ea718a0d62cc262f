"""Each account's name skeletons (players.names), for the sign-up's look-alike check: the
table, its index, and the skeletons of the accounts made before it."""

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models


def fill_skeletons(apps, schema_editor):
    from players.names import skeletons

    users = apps.get_model(*settings.AUTH_USER_MODEL.split("."))
    rows = apps.get_model("players", "NameSkeleton")
    made = (
        rows(user_id=pk, skeleton=skeleton)
        for pk, name in users.objects.values_list("pk", "username").iterator()
        for skeleton in skeletons(name)
    )
    rows.objects.bulk_create(made, batch_size=1000)


class Migration(migrations.Migration):
    dependencies = [
        ("auth", "0012_alter_user_first_name_max_length"),
        ("players", "0003_username_any_case_index"),
    ]

    operations = [
        migrations.CreateModel(
            name="NameSkeleton",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                ("skeleton", models.CharField(db_index=True, max_length=600)),
                (
                    "user",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="name_skeletons",
                        to=settings.AUTH_USER_MODEL,
                    ),
                ),
            ],
            options={
                "constraints": [
                    models.UniqueConstraint(
                        fields=("user", "skeleton"), name="one_row_per_skeleton"
                    )
                ],
            },
        ),
        migrations.RunPython(fill_skeletons, migrations.RunPython.noop),
    ]
