"""The production settings' safety checks, run at settings import (no Django needed)."""

from __future__ import annotations

import os
import secrets
from pathlib import Path

from django.core.exceptions import ImproperlyConfigured

# The key the embedded (DEBUG) mode runs on; never valid with DEBUG off.
DEV_SECRET_KEY = "embedded-dev-key-change-me-in-production"
# Django's own bar (security.W009): at least 50 characters, 5 distinct ones.
MIN_SECRET_KEY_LENGTH = 50
MIN_SECRET_KEY_UNIQUE = 5


def require_production_secret_key(key: str) -> None:
    """Refuse to start with DEBUG off on the development key or a weak one: a forged
    session or password-reset token is one guess away otherwise."""
    if key == DEV_SECRET_KEY:
        raise ImproperlyConfigured(
            "DEBUG is off but SECRET_KEY is not set: set SECRET_KEY to a long random value "
            '(python -c "import secrets; print(secrets.token_urlsafe(64))").'
        )
    if (
        len(key) < MIN_SECRET_KEY_LENGTH
        or len(set(key)) < MIN_SECRET_KEY_UNIQUE
        or key.startswith("django-insecure-")
    ):
        raise ImproperlyConfigured(
            f"DEBUG is off and SECRET_KEY is weak: it needs at least {MIN_SECRET_KEY_LENGTH} "
            f"characters, {MIN_SECRET_KEY_UNIQUE} of them distinct."
        )


def file_secret_key(path: Path) -> str:
    """The key kept in ``path``; missing, one is made (random, readable by its owner
    only) and kept there, so sessions outlive a restart."""
    try:
        descriptor = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError:
        key = path.read_text().strip()
        if key:
            return key
        raise ImproperlyConfigured(f"{path} is empty: delete it to make a new key.") from None
    key = secrets.token_urlsafe(64)
    with os.fdopen(descriptor, "w") as out:
        out.write(key + "\n")
    return key


def csv(value: str) -> list[str]:
    return [item.strip() for item in value.split(",") if item.strip()]
