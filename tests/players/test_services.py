"""Players' writes: ratings after a game, accounts, tokens and tickets
(players/services.py)."""

from __future__ import annotations

import pytest
from rest_framework import serializers
from rest_framework.authtoken.models import Token

from games import services, storage
from games.errors import Conflict
from games.models import Game
from players import receivers, tickets
from players import services as players_services
from players.models import Rating, RatingChange
from tests.conftest import needs_postgres
from tests.games.helpers import humans_game, play_out
from tests.players.helpers import pairwise

pytestmark = pytest.mark.django_db(transaction=True)


# ---- rated games ------------------------------------------------------------------------
def test_a_four_player_game_updates_four_ratings_by_the_pairwise_rule(make_user):
    users = [make_user(n) for n in ("ana", "bob", "cy", "dee")]
    start = {"ana": 1500.0, "bob": 1620.0, "cy": 1410.0, "dee": 1555.0}
    for user in users:
        Rating.objects.create(user=user, ruleset="kingdoms", value=start[user.username])
    game = play_out(humans_game(users), users)
    assert game.status == Game.Status.FINISHED
    name_at = {s.number: s.user.username for s in game.seats.select_related("user")}
    ranking = [[name_at[seat] for seat in group] for group in game.outcome["ranking"]]
    place = {name: i for i, group in enumerate(ranking) for name in group}
    for user in users:
        me = user.username
        others = [
            (start[o], 1.0 if place[me] < place[o] else 0.0 if place[me] > place[o] else 0.5)
            for o in start
            if o != me
        ]
        rating = Rating.objects.get(user=user, ruleset="kingdoms")
        assert rating.value == pytest.approx(start[me] + pairwise(start[me], others, 4))
        assert rating.games == 1
        change = RatingChange.objects.get(game=game, user=user)
        assert change.before == start[me] and change.place == place[me] + 1
    assert RatingChange.objects.filter(game=game).count() == 4


def test_recording_a_result_twice_counts_once(make_user):
    users = [make_user("ana"), make_user("bob")]
    game = play_out(humans_game(users), users)
    assert RatingChange.objects.filter(game=game).count() == 2
    assert players_services.rating_record_result(game=game, table=storage.replay(game)) == []
    assert Rating.objects.get(user=users[0]).games == 1


def test_a_resignation_that_ends_a_two_player_game_is_rated(make_user):
    ana, bob = make_user("ana"), make_user("bob")
    game = humans_game([ana, bob])
    services.game_resign(game_id=game.id, user=ana)
    assert Rating.objects.get(user=ana).value == pytest.approx(1484)
    assert Rating.objects.get(user=bob).value == pytest.approx(1516)


# ---- accounts and credentials -----------------------------------------------------------
def test_account_create_gives_the_account_and_its_token():
    user, token = players_services.account_create(username="cy", password="pw-1234567")
    assert user.check_password("pw-1234567")
    assert Token.objects.get(user=user).key == token


def test_account_create_refuses_a_name_taken_in_another_case(make_user):
    make_user("ana")
    with pytest.raises(Conflict) as refused:
        players_services.account_create(username="Ana", password="pw-1234567")
    assert refused.value.code == "username_taken"


@needs_postgres
def test_the_any_case_check_reads_an_index_not_every_account(make_user):
    from django.contrib.auth import get_user_model
    from django.db import connection

    make_user("ana")
    taken = get_user_model().objects.filter(username__iexact="ANA")
    with connection.cursor() as cursor:
        cursor.execute("SET LOCAL enable_seqscan = off")  # a tiny table: make the choice show
        plan = taken.explain()
    assert "players_username_any_case" in plan
    assert taken.exists()


def test_account_create_refuses_a_password_django_refuses():
    with pytest.raises(serializers.ValidationError) as refused:
        players_services.account_create(username="cy", password="12345678")
    assert "password" in refused.value.detail


def test_token_revoke_deletes_the_token(make_user):
    ana = make_user("ana")
    Token.objects.create(user=ana)
    players_services.token_revoke(user=ana)
    assert not Token.objects.filter(user=ana).exists()


def test_a_ws_ticket_is_redeemed_once_for_its_player(make_user):
    ana = make_user("ana")
    ticket = players_services.ws_ticket_issue(user=ana)
    assert tickets.redeem(ticket) == (ana, None)
    assert tickets.redeem(ticket) is None


def test_the_receiver_records_a_result_through_the_service(make_user):
    # players.receivers calls players.services.rating_record_result when games finishes a
    # game; called again it records nothing more (the service's "once").
    users = [make_user("ana"), make_user("bob")]
    game = play_out(humans_game(users), users)
    assert RatingChange.objects.filter(game=game).count() == 2
    receivers.record_result(game=game, table=storage.replay(game))
    assert RatingChange.objects.filter(game=game).count() == 2
