"""Snapshots become signed checkpoints, and the log's tables refuse TRUNCATE on PostgreSQL.

1. Each snapshot gets the hash of its head event, the key id and the server's signature
   (games/signing.py); the snapshots already stored are signed here, once.
2. Snapshots are append-only like events: UPDATE, DELETE and TRUNCATE are refused.
3. Events refuse TRUNCATE too (0002 refuses UPDATE and DELETE: row triggers never fire on
   TRUNCATE, so it was a way round them).

The one TRUNCATE let through is ``manage.py flush`` (games/management/commands/flush.py),
which sets ``kingdom.flush`` for its own session: flush empties every table of the
database at once (the test suite runs it after each transactional test), which is a
deliberate wipe of everything, not an edit of one game's history. An attacker with the
database owner's rights can disable any trigger; the signatures are what catches them.
"""

from django.db import migrations, models

CREATE = """
CREATE OR REPLACE FUNCTION games_append_only() RETURNS trigger AS $$
BEGIN
    IF TG_OP = 'TRUNCATE' AND current_setting('kingdom.flush', true) = 'on' THEN
        RETURN NULL;
    END IF;
    RAISE EXCEPTION '% is append-only (% refused)', TG_TABLE_NAME, TG_OP
        USING ERRCODE = 'insufficient_privilege';
END;
$$ LANGUAGE plpgsql;
CREATE TRIGGER games_event_no_truncate
    BEFORE TRUNCATE ON games_gameevent
    FOR EACH STATEMENT EXECUTE FUNCTION games_append_only();
CREATE TRIGGER games_snapshot_append_only
    BEFORE UPDATE OR DELETE ON games_snapshot
    FOR EACH ROW EXECUTE FUNCTION games_append_only();
CREATE TRIGGER games_snapshot_no_truncate
    BEFORE TRUNCATE ON games_snapshot
    FOR EACH STATEMENT EXECUTE FUNCTION games_append_only();
"""
DROP = """
DROP TRIGGER IF EXISTS games_snapshot_no_truncate ON games_snapshot;
DROP TRIGGER IF EXISTS games_snapshot_append_only ON games_snapshot;
DROP TRIGGER IF EXISTS games_event_no_truncate ON games_gameevent;
DROP FUNCTION IF EXISTS games_append_only();
"""


def sign_stored_snapshots(apps, schema_editor):
    from games.storage.signing import sign_checkpoint

    Snapshot = apps.get_model("games", "Snapshot")
    GameEvent = apps.get_model("games", "GameEvent")
    signed = []
    for snapshot in Snapshot.objects.filter(signature="").iterator():
        head = GameEvent.objects.get(game_id=snapshot.game_id, seq=snapshot.seq)
        point = sign_checkpoint(str(snapshot.game_id), snapshot.seq, head.hash)
        snapshot.head_hash, snapshot.key_id = point["hash"], point["key_id"]
        snapshot.signature = point["signature"]
        signed.append(snapshot)
    Snapshot.objects.bulk_update(signed, ["head_hash", "key_id", "signature"], batch_size=500)


def create(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute(CREATE, params=None)


def drop(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute(DROP, params=None)


class Migration(migrations.Migration):
    dependencies = [("games", "0005_moderation_disconnect_host_action")]

    operations = [
        migrations.AddField(
            model_name="snapshot",
            name="head_hash",
            field=models.CharField(blank=True, max_length=64),
        ),
        migrations.AddField(
            model_name="snapshot",
            name="key_id",
            field=models.CharField(blank=True, max_length=64),
        ),
        migrations.AddField(
            model_name="snapshot",
            name="signature",
            field=models.CharField(blank=True, max_length=100),
        ),
        migrations.RunPython(sign_stored_snapshots, migrations.RunPython.noop),
        migrations.RunPython(create, drop),
    ]
