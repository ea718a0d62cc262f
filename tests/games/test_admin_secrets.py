"""The admin's lookups in the query string cannot search a live game's secrets: the seed,
the events' private parts, the recorded commands and the snapshots' full state. A filter
on a hidden field answers the same whether the guess matches or not."""

from __future__ import annotations

import json
import re

import pytest
from django.utils.html import escape

from games.models import GameEvent, Snapshot
from tests.games.helpers import humans_game, make_moderator

pytestmark = pytest.mark.django_db(transaction=True)


# A page's CSRF token is masked afresh for every answer: not part of what is compared.
CSRF_TOKEN = re.compile(rb'(csrf-token" content="|csrfmiddlewaretoken" value=")[^"]*')


def same_answer(client, matching: str, other: str) -> None:
    hit, miss = client.get(matching), client.get(other)
    assert hit.status_code == miss.status_code
    assert CSRF_TOKEN.sub(rb"\1", hit.content) == CSRF_TOKEN.sub(rb"\1", miss.content)
    assert hit.status_code != 200, "the hidden field's filter was applied"


@pytest.fixture
def live(make_user):
    game = humans_game([make_user("ana"), make_user("bob")])
    game.refresh_from_db()
    return game


@pytest.fixture
def mod_client(client, make_user):
    client.force_login(make_moderator(make_user("mod", staff=True)))
    return client


def test_the_seed_of_a_live_game_cannot_be_searched_out(live, mod_client):
    base = f"/admin/games/game/?id={live.id}&seed__startswith="
    prefix = live.seed[:3]
    wrong = "".join("0" if c != "0" else "1" for c in prefix)
    same_answer(mod_client, base + prefix, base + wrong)
    for lookup in ("seed__regex", "seed__gte", "seed", "seed__in"):
        same_answer(
            mod_client,
            f"/admin/games/game/?{lookup}={live.seed}",
            f"/admin/games/game/?{lookup}=zz",
        )


def test_a_hidden_tile_cannot_be_found_through_the_event_filters(live, mod_client):
    event = next(e for e in GameEvent.objects.filter(game=live) if e.private)
    fragment = json.dumps(event.private)[2:8]
    base = f"/admin/games/gameevent/?game={live.id}&private__icontains="
    same_answer(mod_client, base + fragment, base + "@@nothing@@")
    base = f"/admin/games/gameevent/?game={live.id}&command__icontains="
    same_answer(mod_client, base + "type", base + "@@nothing@@")


def test_secrets_cannot_be_reached_through_a_relation(live, mod_client):
    for url in (
        f"/admin/games/seat/?game__seed__startswith={live.seed[:2]}",
        f"/admin/games/game/?events__private__icontains={live.seed[:2]}",
        f"/admin/games/game/?rematches__seed__startswith={live.seed[:2]}",
        f"/admin/games/game/?rematch_of__seed__startswith={live.seed[:2]}",
        f"/admin/community/chatmessage/?game__seed__startswith={live.seed[:2]}",
        f"/admin/auth/user/?game__seed__startswith={live.seed[:2]}",
    ):
        response = mod_client.get(url)
        assert response.status_code != 200, url


def test_superusers_cannot_filter_snapshots_by_their_state(live, client, django_user_model):
    Snapshot.objects.create(game=live, seq=live.head_seq, state={"deck": ["secret-card"]})
    root = django_user_model.objects.create_superuser("root", password="pw-123456789")
    client.force_login(root)
    base = "/admin/games/snapshot/?state__icontains="
    same_answer(client, base + "secret-card", base + "@@nothing@@")


def test_an_events_page_shows_its_command_only_once_the_game_is_over(live, mod_client):
    event = GameEvent.objects.filter(game=live, command__isnull=False).last()
    page = mod_client.get(f"/admin/games/gameevent/{event.pk}/change/")
    assert page.status_code == 200
    assert b"shown once the game is over" in page.content
    assert escape(json.dumps(event.command)).encode() not in page.content
