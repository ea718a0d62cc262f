from django.apps import AppConfig


class CommunityConfig(AppConfig):
    """Chat, reports, mutes, bans and the moderation record."""

    name = "community"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        # games imports nothing from here: it announces staff actions on a game
        # (games.signals), which community.receivers records.
        from community import receivers  # noqa: F401
