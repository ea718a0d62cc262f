from django.apps import AppConfig


class PlayersConfig(AppConfig):
    name = "players"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        # games imports nothing from here: it announces finished games (games.signals),
        # whose ratings players.receivers records, and asks the rating source set here
        # for the seated players' ratings on its tables.
        from games import selectors
        from players import receivers

        selectors.set_rating_source(receivers.RATINGS)
