"""The production settings' safety checks, run at settings import (no Django needed)."""

from __future__ import annotations

import base64
import os
import secrets
from pathlib import Path

from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
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


def require_production_signing_key(key: str) -> None:
    """Refuse to start with DEBUG off without SIGNING_KEY, or with one that is not an
    Ed25519 private key. Otherwise each process would make a key file of its own: on a
    read-only root file system the first checkpoint fails, and with several processes
    each signs with a different key."""
    if not key.strip():
        raise ImproperlyConfigured(
            "DEBUG is off but SIGNING_KEY is not set: set it, from the deployment's secret "
            "store, to one Ed25519 key shared by every process "
            "(the base64 of 32 random bytes: head -c 32 /dev/urandom | base64)."
        )
    try:
        parse_private_key(key)
    except (ValueError, TypeError) as exc:  # binascii.Error is a ValueError
        raise ImproperlyConfigured(
            "SIGNING_KEY is not an Ed25519 private key: it takes the base64 of 32 random "
            "bytes, or a PEM private key."
        ) from exc


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


def parse_private_key(text: str) -> Ed25519PrivateKey:
    """A PEM private key, or the base64 of the 32 raw bytes of one (the signing key of
    games/storage/signing.py, checked here before anything else runs)."""
    text = text.strip()
    if text.startswith("-----BEGIN"):
        key = serialization.load_pem_private_key(text.encode(), password=None)
        if not isinstance(key, Ed25519PrivateKey):
            raise ValueError("SIGNING_KEY is not an Ed25519 private key")
        return key
    return Ed25519PrivateKey.from_private_bytes(base64.b64decode(text, validate=True))
