from django.apps import AppConfig


class GamesConfig(AppConfig):
    name = "games"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        # A finished game is announced on its players' account streams (the bot API).
        from games import signals
        from games.services import account_news

        signals.game_finished.connect(
            account_news.on_game_finished, dispatch_uid="games.account_news.finished"
        )
