from django.apps import AppConfig


class CommunityConfig(AppConfig):
    """Chat, reports, mutes, bans and the moderation record."""

    name = "community"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        # games imports nothing from here: it announces staff actions on a game
        # (games.signals), which community.receivers records.
        from community import receivers  # noqa: F401
        from community.publish import CHAT_LINES
        from community.services.blocks import challenge_refusal
        from games.selectors import sources

        # A block or a mute refuses a challenge; the bot API's game stream carries chat.
        sources.add_challenge_check(challenge_refusal)
        sources.set_chat_source(CHAT_LINES)
