"""The audit page: public once the game is over, staff-only before; chain status, seed
commitment, the revealed seed and its verification; a public-only timeline."""

from __future__ import annotations

import json

import pytest
from django.db import connection
from rest_framework.test import APIClient

from games import services
from games.models import Game, GameEvent
from tests.conftest import ON_POSTGRES
from tests.games.helpers import game_with_bots, humans_game, pin_seed, play_out

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def finished(make_user) -> Game:
    users = [make_user("ana"), make_user("bob")]
    return play_out(humans_game(users), users)


@pytest.fixture
def in_progress(make_user) -> Game:
    user = make_user("host")
    # A known seed: on about one seed in thirteen every private string (a starting tile)
    # also shows publicly by the host's first turn, and the timeline test has nothing to hide.
    game = pin_seed(game_with_bots(user, bots=2, level="easy"), "audit-timeline-0")
    services.game_start(game_id=game.id, user=user)
    return Game.objects.get(pk=game.id)


def private_strings(game: Game) -> set[str]:
    """Every string only ever held privately (never in any public part) in the log."""
    public, private = set(), set()
    for row in GameEvent.objects.filter(game=game):
        public.add(json.dumps(row.public))
        for data in row.private.values():
            private |= {v for v in data.values() if isinstance(v, str) and len(v) > 2}
    everything_public = " ".join(public)
    return {value for value in private if value not in everything_public}


def test_a_finished_game_is_audited_publicly_with_the_seed_verified(finished, client):
    response = client.get(f"/tables/{finished.id}/audit/")
    assert response.status_code == 200
    body = response.content.decode()
    assert 'data-testid="chain-status"><span class="audit-ok">intact' in body
    assert finished.seed_commitment in body and finished.seed in body
    assert "passed" in body and "reproduces every event" in body
    assert "server signatures valid (key " in body  # the final checkpoint is signed
    assert body.count("audit-jump") == finished.head_seq
    assert "/static/js/audit.js" in body
    trail = APIClient().get(f"/api/tables/{finished.id}/audit/trail/").json()
    assert trail["verdict"]["passed"] and trail["verdict"]["reexecution_matches"]
    assert trail["seed"] == finished.seed
    assert [e["seq"] for e in trail["timeline"]] == list(range(1, finished.head_seq + 1))
    assert all(e["actor"] and e["recorded_at"] for e in trail["timeline"])


def test_a_game_in_progress_is_audited_by_staff_only(in_progress, client, make_user):
    assert client.get(f"/tables/{in_progress.id}/audit/").status_code == 403
    client.force_login(in_progress.created_by)
    assert client.get(f"/tables/{in_progress.id}/audit/").status_code == 403
    api = APIClient()
    assert api.get(f"/api/tables/{in_progress.id}/audit/trail/").status_code in (401, 403)
    client.force_login(make_user("staff", staff=True))
    response = client.get(f"/tables/{in_progress.id}/audit/")
    assert response.status_code == 200
    body = response.content.decode()
    assert "revealed when the game ends" in body and in_progress.seed not in body
    assert "not possible until the seed is revealed" in body


def test_the_timeline_shows_no_private_part_even_to_staff(in_progress, client, make_user):
    secrets = private_strings(in_progress)
    assert secrets, "the game holds private facts (drawn tiles)"
    client.force_login(make_user("staff", staff=True))
    body = client.get(f"/tables/{in_progress.id}/audit/").content.decode()
    api = APIClient()
    api.force_authenticate(make_user("staff2", staff=True))
    trail = json.dumps(api.get(f"/api/tables/{in_progress.id}/audit/trail/").json())
    for secret in secrets:
        assert secret not in body and secret not in trail


def test_the_board_at_an_event_can_be_asked_for_as_a_spectator(in_progress, client):
    client.force_login(in_progress.created_by)
    own = client.get(f"/api/tables/{in_progress.id}/view/?at=3").json()
    public = client.get(f"/api/tables/{in_progress.id}/view/?at=3&spectator=1").json()
    assert own["seq"] == public["seq"] == 3
    anonymous = APIClient().get(f"/api/tables/{in_progress.id}/view/?at=3").json()
    assert public == anonymous


def test_a_tampered_row_shows_as_broken_on_the_page(finished, client):
    row = GameEvent.objects.filter(game=finished).order_by("seq")[4]
    with connection.cursor() as cursor:
        if ON_POSTGRES:
            cursor.execute("ALTER TABLE games_gameevent DISABLE TRIGGER games_event_append_only")
        cursor.execute("UPDATE games_gameevent SET actor = %s WHERE id = %s", ["seat:9", row.id])
        if ON_POSTGRES:
            cursor.execute("ALTER TABLE games_gameevent ENABLE TRIGGER games_event_append_only")
    body = client.get(f"/tables/{finished.id}/audit/").content.decode()
    assert f"broken at event {row.seq}" in body and "FAILED" in body


def test_unknown_game_audit_is_404(client):
    assert client.get("/tables/00000000-0000-0000-0000-000000000000/audit/").status_code == 404


def test_the_table_page_includes_the_chat(finished, client):
    body = client.get(f"/tables/{finished.id}/").content.decode()
    assert 'id="chat"' in body and "/static/js/chat.js" in body
    assert f"/tables/{finished.id}/audit/" in body


def test_the_page_opens_with_one_plain_sentence_and_folds_the_hashes_away(
    finished, in_progress, client, make_user
):
    body = client.get(f"/tables/{finished.id}/audit/").content.decode()
    summary = body[body.index('data-testid="audit-summary"') :]
    assert summary.index("This game's shuffles check out.") < summary.index("<details")
    details = body[body.index('<details class="audit-details">') : body.index("</details>")]
    assert finished.seed_commitment in details and "verify_export" in details
    client.force_login(make_user("staff", staff=True))
    body = client.get(f"/tables/{in_progress.id}/audit/").content.decode()
    assert "Nothing in this game's record was changed." in body
    assert "shuffles check out" not in body
