"""An index for the sign-up's "taken in any letter case" check (players/services.py
``account_create``): ``username__iexact`` is ``UPPER(username) = UPPER(%s)`` on
PostgreSQL, which read every account before it (a sign-up cost grew with the players).
Not unique: accounts made before the check (createsuperuser, the admin) may differ only in
case, and a unique index would stop the migration there."""

from django.db import migrations


class Migration(migrations.Migration):
    dependencies = [
        ("players", "0002_mute_moved"),
        ("auth", "0012_alter_user_first_name_max_length"),
    ]

    operations = [
        migrations.RunSQL(
            sql="CREATE INDEX IF NOT EXISTS players_username_any_case ON auth_user "
            "(UPPER(username))",
            reverse_sql="DROP INDEX IF EXISTS players_username_any_case",
        )
    ]
