"""Email: the address verified by a signed link, password resets for verified addresses
only, and "your turn" emails at turn-based tables (once an hour per table, none while the
page is open, an unsubscribe link that needs no login)."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from asgiref.sync import async_to_sync
from django.core import mail as outbox
from django.core import signing
from django.urls import reverse
from django.utils import timezone

from games import presence
from games.models import Game
from players import mail
from players.models import MailSettings, TurnEmail
from tests.games.helpers import humans_game, play_out, to_act

TURNS = {"kind": "turn", "hours": 24}


def link_in(message) -> str:
    return re.search(r"https?://\S+", message.body).group(0)


def verified(user, email: str) -> None:
    user.email = email
    user.save(update_fields=["email"])
    MailSettings.objects.update_or_create(user=user, defaults={"verified_email": email})


# ---- the address ------------------------------------------------------------------------
def test_signup_with_an_address_mails_a_link_that_verifies_it(client, db):
    answer = client.post(
        reverse("signup"),
        {
            "username": "ana",
            "email": "ana@example.org",
            "password1": "pw-123456789x",
            "password2": "pw-123456789x",
        },
    )
    assert answer.status_code == 302
    assert [m.to for m in outbox.outbox] == [["ana@example.org"]]
    link = link_in(outbox.outbox[0])
    from django.contrib.auth import get_user_model

    ana = get_user_model().objects.get(username="ana")
    assert mail.verified_address(ana) == ""
    page = client.get(link[link.index("/accounts/") :])
    assert page.status_code == 200
    assert b"ana@example.org is confirmed" in page.content
    assert mail.verified_address(ana) == "ana@example.org"


def test_signup_without_an_address_sends_nothing(client, db):
    data = {"username": "bob", "password1": "pw-123456789x", "password2": "pw-123456789x"}
    assert client.post(reverse("signup"), data).status_code == 302
    assert outbox.outbox == []


def test_a_link_for_an_older_address_or_altered_verifies_nothing(client, make_user):
    ana = make_user("ana")
    mail.address_set(user=ana, email="old@example.org", site="http://testserver/")
    old_link = link_in(outbox.outbox[-1])
    mail.address_set(user=ana, email="new@example.org", site="http://testserver/")
    answer = client.get(old_link[old_link.index("/accounts/") :])
    assert answer.status_code == 400
    assert mail.verified_address(ana) == ""
    altered = client.get(reverse("email-verify", args=["x" + old_link.split("/")[-2]]))
    assert altered.status_code == 400


def test_a_verification_link_expires(make_user, settings):
    ana = make_user("ana")
    mail.address_set(user=ana, email="ana@example.org", site="http://testserver/")
    token = link_in(outbox.outbox[-1]).rstrip("/").split("/")[-1]
    settings.EMAIL_VERIFY_SECONDS = -1
    with pytest.raises(Exception, match="not valid, or has expired"):
        mail.address_verify(token=token)


def test_account_page_sets_the_address_and_shows_it_unconfirmed(client, make_user):
    ana = make_user("ana")
    client.force_login(ana)
    answer = client.post(reverse("account"), {"email": "ana@example.org", "turn_emails": "on"})
    assert b"Open the link we mailed to ana@example.org" in answer.content
    assert b"Not confirmed yet" in answer.content
    assert len(outbox.outbox) == 1
    ana.refresh_from_db()
    assert ana.email == "ana@example.org"


def test_password_reset_mails_verified_addresses_only(client, make_user):
    ana, bob = make_user("ana"), make_user("bob")
    verified(ana, "ana@example.org")
    bob.email = "bob@example.org"  # typed, never confirmed
    bob.save(update_fields=["email"])
    for email in ("ana@example.org", "bob@example.org"):
        answer = client.post(reverse("password_reset"), {"email": email})
        assert answer.status_code == 302
    assert [m.to for m in outbox.outbox] == [["ana@example.org"]]
    link = link_in(outbox.outbox[0])
    form = client.get(link[link.index("/accounts/") :], follow=True)
    assert b"New password" in form.content
    done = client.post(
        form.redirect_chain[-1][0],
        {"new_password1": "a-new-pw-4567", "new_password2": "a-new-pw-4567"},
        follow=True,
    )
    assert b"Your new password works now" in done.content
    ana.refresh_from_db()
    assert ana.check_password("a-new-pw-4567")


# ---- "your turn" ------------------------------------------------------------------------
def turn_table(make_user):
    ana, bob = make_user("ana"), make_user("bob")
    verified(ana, "ana@example.org")
    verified(bob, "bob@example.org")
    return humans_game([ana, bob], time_control=TURNS), ana, bob


def move_until_someone_waits(game, users, django_capture_on_commit_callbacks):
    """One move by whoever is to act; the accounts now to act (not the mover)."""
    by_seat = {game.seats.get(user=u).number: u for u in users}
    mover = by_seat[sorted(to_act(game))[0]]
    with django_capture_on_commit_callbacks(execute=True):
        play_out(game, [mover], moves=1)
    return mover, [by_seat[s] for s in to_act(game) if by_seat[s] != mover]


def test_a_turn_passing_mails_the_player_now_to_act_once_an_hour(
    make_user, django_capture_on_commit_callbacks
):
    game, ana, bob = turn_table(make_user)
    sent: list = []
    for _ in range(8):
        _, waiting = move_until_someone_waits(game, [ana, bob], django_capture_on_commit_callbacks)
        sent += waiting
        if len({u.pk for u in sent}) == 2:
            break
    assert {u.pk for u in sent} == {ana.pk, bob.pk}, "both players waited at least once"
    # One email per player and table however many times the turn came back within the hour.
    assert sorted(m.to[0] for m in outbox.outbox) == ["ana@example.org", "bob@example.org"]
    message = outbox.outbox[0]
    assert f"/tables/{game.id}/" in message.body
    assert message.extra_headers["List-Unsubscribe"].startswith("<http")
    # An hour later the next turn mails again.
    TurnEmail.objects.update(sent_at=timezone.now() - timedelta(hours=1, seconds=1))
    assert mail.turn_email_send(user_id=ana.pk, game_id=game.id)
    assert not mail.turn_email_send(user_id=ana.pk, game_id=game.id)


def test_no_turn_email_at_a_table_without_hours_per_move(
    make_user, django_capture_on_commit_callbacks
):
    ana, bob = make_user("ana"), make_user("bob")
    verified(ana, "ana@example.org")
    verified(bob, "bob@example.org")
    game = humans_game([ana, bob])
    for _ in range(4):
        move_until_someone_waits(game, [ana, bob], django_capture_on_commit_callbacks)
    assert outbox.outbox == []


def test_no_turn_email_while_the_page_is_open_unverified_or_turned_off(make_user):
    game, ana, bob = turn_table(make_user)
    async_to_sync(presence.page_seen)(game.id, ana.pk)
    assert not mail.turn_email_send(user_id=ana.pk, game_id=game.id)
    async_to_sync(presence.page_closed)(game.id, ana.pk)
    MailSettings.objects.filter(user=bob).update(verified_email="")
    assert not mail.turn_email_send(user_id=bob.pk, game_id=game.id)
    mail.turn_emails_set(user=ana, on=False)
    assert not mail.turn_email_send(user_id=ana.pk, game_id=game.id)
    mail.turn_emails_set(user=ana, on=True)
    assert mail.turn_email_send(user_id=ana.pk, game_id=game.id)
    Game.objects.filter(pk=game.pk).update(status=Game.Status.FINISHED)
    TurnEmail.objects.all().delete()
    assert not mail.turn_email_send(user_id=ana.pk, game_id=game.id)
    assert len(outbox.outbox) == 1


def test_the_unsubscribe_link_works_without_logging_in(client, make_user):
    game, ana, _ = turn_table(make_user)
    assert mail.turn_email_send(user_id=ana.pk, game_id=game.id)
    link = re.search(r"To stop these emails: (\S+)", outbox.outbox[0].body).group(1)
    path = link[link.index("/accounts/") :]
    asked = client.get(path)
    assert asked.status_code == 200
    assert MailSettings.objects.get(user=ana).turn_emails, "a GET (a mail scanner) changes nothing"
    done = client.post(path)
    assert b"no more" in done.content
    assert not MailSettings.objects.get(user=ana).turn_emails
    forged = signing.dumps(ana.pk, salt="another-salt")
    answer = client.post(reverse("turn-emails-off", args=[forged]))
    assert answer.status_code == 400


def test_a_turn_based_table_starting_mails_the_first_player_to_act(
    make_user, django_capture_on_commit_callbacks
):
    from games import services

    ana, bob = make_user("ana"), make_user("bob")
    verified(ana, "ana@example.org")
    verified(bob, "bob@example.org")
    game = services.table_create(
        user=ana, ruleset="kingdoms", seats=2, options={}, time_control=TURNS
    )
    services.table_join(game_id=game.id, user=bob)
    with django_capture_on_commit_callbacks(execute=True):
        services.game_start(game_id=game.id, user=ana)
    by_seat = {s.number: s.user for s in Game.objects.get(pk=game.id).seats.all()}
    first = [by_seat[s].email for s in sorted(to_act(game))]
    assert [m.to[0] for m in outbox.outbox] == first
