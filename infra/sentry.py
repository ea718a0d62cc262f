"""Errors to Sentry when SENTRY_DSN is set; nothing at all (no SDK client) when unset."""

from __future__ import annotations


def init_sentry(dsn: str | None, *, environment: str, release: str, traces: float) -> bool:
    """Called at the end of settings; returns whether Sentry is on."""
    if not dsn:
        return False
    import sentry_sdk
    from sentry_sdk.integrations.celery import CeleryIntegration
    from sentry_sdk.integrations.django import DjangoIntegration

    sentry_sdk.init(
        dsn=dsn,
        environment=environment,
        release=release or None,
        integrations=[DjangoIntegration(), CeleryIntegration(monitor_beat_tasks=False)],
        traces_sample_rate=traces,
        # Players' names, addresses and cookies stay out of error reports.
        send_default_pii=False,
    )
    return True
