from django.apps import AppConfig


class CommunityConfig(AppConfig):
    """Chat, reports, mutes, bans and the moderation record."""

    name = "community"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        # games imports nothing from here: it announces staff actions on a game
        # (games.signals, recorded by community.receivers) and asks for a game's record
        # when it builds an audit.
        from community import receivers, selectors  # noqa: F401
        from games import audit_trail

        audit_trail.moderation_source = selectors.moderation_of
