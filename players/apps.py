from django.apps import AppConfig


class PlayersConfig(AppConfig):
    name = "players"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        # games imports nothing from here: it announces finished games (games.signals),
        # whose ratings players.receivers records, and asks the rating source set here
        # for the seated players' ratings on its tables.
        from games import selectors
        from games.selectors import sources
        from players import receivers
        from players import selectors as player_selectors

        selectors.set_rating_source(receivers.RATINGS)
        # ...and which accounts are bot accounts (players.models.BotAccount).
        sources.set_bot_source(player_selectors.bot_ids)
