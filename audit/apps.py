from django.apps import AppConfig


class AuditConfig(AppConfig):
    """Verification, exports, the audit trail and the audit page of games (no models:
    it reads the games app's store, selectors and models)."""

    name = "audit"
    default_auto_field = "django.db.models.BigAutoField"
