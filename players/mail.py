"""Players' email: an optional address, verified by a signed link; "your turn" emails
for turn-based tables, at most one per table and player an hour, with a signed link that
turns them off without logging in. Password resets are Django's own views
(players/urls.py), for verified addresses only (``pages.PasswordResetForm``)."""

from __future__ import annotations

import logging
import smtplib
import uuid
from datetime import datetime, timedelta

from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.models import User
from django.core import signing
from django.core.mail import EmailMessage
from django.db import IntegrityError, transaction
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone

from games import presence
from games.errors import ServiceError
from games.models import Game
from players import selectors
from players.models import MailSettings, TurnEmail

log = logging.getLogger(__name__)
VERIFY_SALT = "players.mail.verify"
UNSUBSCRIBE_SALT = "players.mail.turn-emails-off"


# ---- the address ------------------------------------------------------------------------
def settings_of(user: User) -> MailSettings:
    found, _ = MailSettings.objects.get_or_create(user=user)
    return found


def verified_address(user: User) -> str:
    """The account's address when it is verified, else ''."""
    email = getattr(user, "email", "")
    if not email:
        return ""
    found = MailSettings.objects.filter(user=user).values_list("verified_email", flat=True)
    return email if email in found else ""


def address_set(*, user: User, email: str, site: str) -> None:
    """Give the account ``email`` ('' removes it) and mail a verification link to it;
    ``site``: the site's address, as the player reached it."""
    users = get_user_model()
    users.objects.filter(pk=user.pk).update(email=email)
    user.email = email
    if email and email != verified_address(user):
        verification_send(user=user, site=site)


def verification_send(*, user: User, site: str) -> bool:
    """Mail the account's address a link that confirms it; False (logged) when the mail
    server refused it (the address stays, unconfirmed: the account page sends again)."""
    email = getattr(user, "email", "")
    token = signing.dumps({"u": user.pk, "e": email}, salt=VERIFY_SALT)
    link = site.rstrip("/") + reverse("email-verify", args=[token])
    body = render_to_string("players/mail/verify.txt", {"user": user, "link": link})
    try:
        EmailMessage("Confirm your email address", body, to=[email]).send()
    except (OSError, smtplib.SMTPException):  # SMTPException is an OSError; both named
        log.warning("verification mail to account %s not sent", user.pk, exc_info=True)
        return False
    return True


def address_verify(*, token: str) -> User:
    """The account whose address the link confirms, now verified. A link that is
    altered, too old, or for an address the account no longer has: ``bad_link``."""
    try:
        found = signing.loads(token, salt=VERIFY_SALT, max_age=settings.EMAIL_VERIFY_SECONDS)
    except signing.BadSignature as exc:  # SignatureExpired is one too
        raise ServiceError("bad_link", "This link is not valid, or has expired.") from exc
    users = get_user_model()
    user = users.objects.filter(pk=found.get("u"), email=found.get("e"), is_active=True).first()
    if user is None or not found.get("e"):
        raise ServiceError("bad_link", "This link is for an address the account no longer has.")
    MailSettings.objects.update_or_create(user=user, defaults={"verified_email": found["e"]})
    return user


# ---- "your turn" --------------------------------------------------------------------------
def unsubscribe_token(user_id: int) -> str:
    return signing.dumps(user_id, salt=UNSUBSCRIBE_SALT)


def turn_emails_set(*, user: User, on: bool) -> None:
    MailSettings.objects.update_or_create(user=user, defaults={"turn_emails": on})


def turn_emails_off(*, token: str) -> User:
    """Turn the emails off for the account the signed link names (no login needed)."""
    try:
        user_id = signing.loads(token, salt=UNSUBSCRIBE_SALT)
    except signing.BadSignature as exc:
        raise ServiceError("bad_link", "This link is not valid.") from exc
    user = get_user_model().objects.filter(pk=user_id).first()
    if user is None:
        raise ServiceError("bad_link", "This link is not valid.")
    turn_emails_set(user=user, on=False)
    return user


def _turn_slot_taken(user_id: int, game_id: uuid.UUID, now: datetime) -> bool:
    """Claim this hour's email for (player, table): True when it is claimed (one row per
    pair, moved forward by one conditional update, so two senders at once send one)."""
    since = now - timedelta(seconds=settings.TURN_EMAIL_EVERY_SECONDS)
    rows = TurnEmail.objects.filter(user_id=user_id, game_id=game_id, sent_at__lte=since)
    if rows.update(sent_at=now):
        return True
    try:
        with transaction.atomic():
            TurnEmail.objects.create(user_id=user_id, game_id=game_id, sent_at=now)
    except IntegrityError:  # a row exists, from the last hour
        return False
    return True


def turn_email_send(*, user_id: int, game_id: uuid.UUID | str) -> bool:
    """Mail "your turn at <table>" unless the player turned these off, has no verified
    address, has the table's page open, or was mailed about this table within the hour;
    True when sent."""
    game = Game.objects.filter(pk=game_id, status=Game.Status.ACTIVE).first()
    user = get_user_model().objects.filter(pk=user_id, is_active=True).first()
    if game is None or user is None:
        return False
    mail = MailSettings.objects.filter(user=user).first()
    if mail is None or not mail.turn_emails or not user.email or user.email != mail.verified_email:
        return False
    if presence.has_open_page(game.id, user.pk):
        return False
    if not _turn_slot_taken(user.pk, game.id, timezone.now()):
        return False
    site = settings.SITE_URL
    unsubscribe = site + reverse("turn-emails-off", args=[unsubscribe_token(user.pk)])
    context = {
        "user": user,
        "game_name": selectors.ruleset_names().get(game.ruleset, game.ruleset),
        "link": site + reverse("table-page", args=[game.id]),
        "unsubscribe": unsubscribe,
    }
    body = render_to_string("players/mail/your_turn.txt", context)
    message = EmailMessage(
        f"Your turn at {context['game_name']}",
        body,
        to=[user.email],
        headers={"List-Unsubscribe": f"<{unsubscribe}>"},
    )
    message.send()
    return True
