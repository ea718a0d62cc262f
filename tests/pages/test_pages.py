"""The HTML pages render for anonymous and logged-in users; sign-up logs the user in."""

from __future__ import annotations

import json
import re
import uuid

import pytest
from django.conf import settings
from django.contrib.auth import get_user_model
from django.urls import reverse

from games import services
from games.services.lobby import THINKING_LEVELS
from players.selectors import shared_place
from tests.games.helpers import game_with_bots, humans_game

pytestmark = pytest.mark.django_db


@pytest.fixture
def ana(make_user):
    return make_user("ana")


def test_lobby_renders_for_anonymous_visitors(client):
    response = client.get("/")
    assert response.status_code == 200
    body = response.content.decode()
    assert 'id="lobby"' in body and "/static/js/lobby.js" in body
    assert "Log in" in body and "Sign up" in body
    assert 'id="create-form"' not in body
    assert 'id="rulesets-data"' in body and "kingdoms" in body


def test_lobby_shows_the_create_form_and_log_out_to_a_logged_in_user(client, ana):
    client.force_login(ana)
    body = client.get("/").content.decode()
    assert 'id="create-form"' in body
    assert 'action="/accounts/logout/"' in body and "csrfmiddlewaretoken" in body
    assert reverse("profile", args=["ana"]) in body
    assert 'id="create-bot-think"' in body and 'min="0.1"' in body and 'max="10.0"' in body


def test_the_create_form_offers_every_bot_level_medium_first(client, ana):
    client.force_login(ana)
    body = client.get("/").content.decode()
    select = body[body.index('<select id="create-bot-level"') :]
    select = select[: select.index("</select>")]
    assert re.findall(r'<option value="([a-z]+)"', select) == list(services.BOT_LEVELS)
    assert '<option value="medium" selected>' in select
    assert "Hard and expert bots think" in body


def test_the_scripts_offer_the_levels_the_server_does():
    # static/js/bot_levels.js: the lobby's and the table's add-bot menus, and the levels
    # whose thinking time the create form asks for and the table cards show.
    script = (settings.BASE_DIR / "static" / "js" / "bot_levels.js").read_text()
    thinking = [level for level in services.BOT_LEVELS if level in THINKING_LEVELS]
    assert f"export const BOT_LEVELS = {json.dumps(list(services.BOT_LEVELS))};" in script
    assert f"export const THINKING_LEVELS = {json.dumps(thinking)};" in script
    assert thinking == ["hard", "expert"]


def test_the_lobby_offers_a_guided_game_to_a_new_account_only(client, ana):
    assert 'id="guide-offer"' not in client.get("/").content.decode()  # nobody signed in
    client.force_login(ana)
    body = client.get("/").content.decode()
    assert 'id="guide-offer"' in body and body.count('class="primary learn-start"') == 3
    services.table_create(user=ana, ruleset="kingdoms", seats=2)  # open: not played yet
    assert 'id="guide-offer"' in client.get("/").content.decode()
    humans_game([ana], bots=1)  # started
    body = client.get("/").content.decode()
    assert 'id="guide-offer"' not in body
    assert body.count('class="learn-start"') == 3  # each game's "Learn to play" stays


def test_lobby_sets_the_csrf_cookie_the_scripts_send_back(client):
    response = client.get("/")
    assert "csrftoken" in response.cookies


@pytest.mark.parametrize("logged_in", [False, True])
def test_table_page_renders_with_its_config(client, ana, logged_in):
    game = game_with_bots(ana, "kingdoms", bots=1)
    if logged_in:
        client.force_login(ana)
    response = client.get(f"/tables/{game.id}/")
    assert response.status_code == 200
    body = response.content.decode()
    assert "/static/js/table.js" in body
    assert f'data-game-id="{game.id}"' in body
    assert 'data-ruleset="kingdoms"' in body
    assert f'"game_id": "{game.id}"' in body
    assert ('"username": "ana"' in body) is logged_in


def test_table_page_of_a_started_game_renders(client, ana):
    game = game_with_bots(ana, "kingdoms", bots=1)
    services.game_start(game_id=game.id, user=ana)
    client.force_login(ana)
    assert client.get(f"/tables/{game.id}/").status_code == 200


def test_unknown_table_is_a_404_page(client):
    response = client.get(f"/tables/{uuid.uuid4()}/")
    assert response.status_code == 404
    assert "No such table" in response.content.decode()


def test_signup_page_renders(client):
    response = client.get("/accounts/signup/")
    assert response.status_code == 200
    assert 'name="password2"' in response.content.decode()


def test_signup_creates_a_user_and_logs_them_in(client):
    response = client.post(
        "/accounts/signup/",
        {"username": "bo", "password1": "pw-long-enough-1", "password2": "pw-long-enough-1"},
    )
    assert response.status_code == 302 and response.url == reverse("lobby")
    assert get_user_model().objects.filter(username="bo").exists()
    body = client.get("/").content.decode()
    assert reverse("profile", args=["bo"]) in body


def test_signup_with_mismatched_passwords_shows_the_error(client):
    response = client.post(
        "/accounts/signup/",
        {"username": "bo", "password1": "pw-long-enough-1", "password2": "something-else"},
    )
    assert response.status_code == 200
    assert "errorlist" in response.content.decode()
    assert not get_user_model().objects.filter(username="bo").exists()


def test_login_page_renders_and_logs_in(client, ana):
    assert client.get("/accounts/login/").status_code == 200
    response = client.post("/accounts/login/", {"username": "ana", "password": "pw-123456789"})
    assert response.status_code == 302
    assert "_auth_user_id" in client.session


def test_logout_is_a_post_that_logs_out(client, ana):
    client.force_login(ana)
    response = client.post("/accounts/logout/")
    assert response.status_code == 302
    assert "_auth_user_id" not in client.session


@pytest.mark.parametrize("logged_in", [False, True])
def test_profile_lists_finished_games_with_place_and_score(client, ana, logged_in):
    game = game_with_bots(ana, "kingdoms", bots=1)
    services.game_start(game_id=game.id, user=ana)
    services.game_resign(game_id=game.id, user=ana)  # two seats: the game ends at once
    if logged_in:
        client.force_login(ana)
    response = client.get(reverse("profile", args=["ana"]))
    assert response.status_code == 200
    body = response.content.decode()
    assert f"/tables/{game.id}/" in body
    assert "Kingdoms" in body
    assert "2 of 2" in body  # resigned: last place
    assert response.context["stats"] == {"played": 1, "won": 0, "active": 0}


def test_profile_of_an_unknown_player_is_404(client):
    assert client.get("/players/nobody/").status_code == 404


def test_profile_shows_the_players_ratings_with_a_link_to_the_leaderboard(client, ana):
    from players.models import Rating

    Rating.objects.create(user=ana, ruleset="kingdoms", value=1523.4, games=3)
    body = client.get(reverse("profile", args=["ana"])).content.decode()
    assert "Ratings" in body and "1523" in body
    assert reverse("leaderboard", args=["kingdoms"]) in body


def test_players_who_tie_share_a_place_and_the_next_place_is_skipped():
    ranking = [[2, 0], [1]]
    assert [shared_place(ranking, seat) for seat in (0, 1, 2)] == [1, 3, 1]
    assert shared_place(ranking, 3) is None


def test_the_api_is_for_developers_on_the_about_page_not_in_every_footer(client):
    lobby = client.get("/").content.decode()
    assert "For developers" not in lobby and 'href="/about/"' in lobby
    about = client.get("/about/")
    assert about.status_code == 200
    body = about.content.decode()
    assert 'href="/api/docs/"' in body and 'href="/rules/kingdoms/"' in body
