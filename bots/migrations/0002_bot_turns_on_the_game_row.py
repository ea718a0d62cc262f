# The bot turns owed move from bots_botturn to the game's row (games 0010).

from django.db import migrations


def owed_turns_to_games(apps, schema_editor):
    BotTurn = apps.get_model("bots", "BotTurn")
    Game = apps.get_model("games", "Game")
    for turn in BotTurn.objects.all():
        Game.objects.filter(pk=turn.game_id, head_seq=turn.seq).update(
            bots_due_at=turn.due_at, bots_sends=turn.attempts
        )


class Migration(migrations.Migration):

    dependencies = [
        ('bots', '0001_bot_turns'),
        ('games', '0010_game_bots_due'),
    ]

    operations = [
        migrations.RunPython(owed_turns_to_games, migrations.RunPython.noop),
        migrations.DeleteModel(
            name='BotTurn',
        ),
    ]
