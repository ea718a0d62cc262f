"""A name that looks like a player's name is refused at sign-up: the same letters in
another script (a Cyrillic "а" for a Latin "a"), another case, a compatibility form
(fullwidth letters), or digits and letters that read alike ("0" and "O", "l" and "I").
Each account keeps the skeleton of its name (Unicode TR39), so the check is one indexed
lookup."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from rest_framework.test import APIClient

from games.errors import Conflict
from players import names
from players import services as players_services
from players.models import NameSkeleton
from tests.conftest import needs_postgres

pytestmark = pytest.mark.django_db

CYRILLIC_A = "\u0430"


@pytest.mark.parametrize(
    "look_alike",
    [
        f"{CYRILLIC_A}nastasia",  # Cyrillic а
        "ANASTASIA",
        "\uff41nastasia",  # fullwidth ａ
        "anastas\u0456a",  # Cyrillic і
        "anastasi\u03b1",  # Greek α
    ],
)
def test_a_look_alike_of_a_name_is_taken(make_user, look_alike):
    make_user("anastasia")
    with pytest.raises(Conflict) as refused:
        players_services.account_create(username=look_alike, password="pw-1234567")
    assert refused.value.code == "username_taken"


def test_digits_and_letters_that_read_alike_are_look_alikes(make_user):
    make_user("bob0")
    with pytest.raises(Conflict):
        players_services.account_create(username="bobO", password="pw-1234567")
    make_user("lola")
    with pytest.raises(Conflict):
        players_services.account_create(username="IoIa", password="pw-1234567")


def test_different_names_are_not_look_alikes(make_user):
    make_user("anastasia")
    user, _ = players_services.account_create(username="anastasio", password="pw-1234567")
    assert user.username == "anastasio"


def test_the_api_and_the_page_both_refuse_a_look_alike(make_user):
    make_user("anastasia")
    api = APIClient().post(
        "/api/auth/signup/",
        {"username": f"{CYRILLIC_A}nastasia", "password": "pw-1234567xyz"},
        format="json",
    )
    assert api.status_code == 409 and api.json()["code"] == "username_taken"
    page = Client().post(
        "/accounts/signup/",
        {
            "username": f"{CYRILLIC_A}nastasia",
            "password1": "pw-1234567xyz",
            "password2": "pw-1234567xyz",
        },
    )
    assert page.status_code == 200 and b"looks like" in page.content
    assert get_user_model().objects.count() == 1


def test_every_account_keeps_the_skeletons_of_its_name(make_user):
    user = make_user("Anastasia")

    def kept() -> set[str]:
        return set(NameSkeleton.objects.filter(user=user).values_list("skeleton", flat=True))

    assert kept() == names.skeletons("anastasia")
    user.username = "Bea"
    user.save()
    assert kept() == names.skeletons("bea") == {"bea"}
    user.save(update_fields=["last_login"])
    assert kept() == {"bea"}


def test_the_skeletons_are_tr39s_after_nfkc_and_case_folding():
    assert names.skeletons(f"{CYRILLIC_A}na") == names.skeletons("ana") == {"ana"}
    assert names.skeletons("ANA") == {"ana"}
    assert names.skeletons("rn") == names.skeletons("m")
    assert names.skeletons("IoIa") & names.skeletons("lola")
    assert not names.skeletons("ana") & names.skeletons("anna")


@needs_postgres
def test_the_look_alike_check_reads_an_index_not_every_account(make_user):
    from django.db import connection

    make_user("ana")
    taken = NameSkeleton.objects.filter(skeleton__in=names.skeletons("ANA"))
    with connection.cursor() as cursor:
        cursor.execute("SET LOCAL enable_seqscan = off")  # a tiny table: make the choice show
        plan = taken.explain()
    assert "players_nameskeleton_skeleton" in plan, plan
    assert taken.exists()
