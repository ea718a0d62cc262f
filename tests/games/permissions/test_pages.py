"""Every role against every page, the admin's lists included."""

from __future__ import annotations

import pytest

from tests.games.permissions.helpers import ROLES, UNKNOWN, cases, everyone, fill, only, web_client

pytestmark = pytest.mark.django_db


PAGES = {
    "lobby_page": ("/", everyone(200, 200)),
    "profile_page": ("/players/{third}/", everyone(200, 200)),
    "table_page": ("/tables/{game}/", everyone(200, 200)),
    "audit_page_in_progress": ("/tables/{game}/audit/", only({"staff": 200, "moderator": 200}, anonymous=403)),
    "leaderboards_page": ("/leaderboard/", everyone(200, 200)),
    "leaderboard_page": ("/leaderboard/kingdoms/", everyone(200, 200)),
    # The admin sends non-staff to its login page; staff without the permission see no
    # moderation models at all.
    "admin_queue": ("/admin/community/report/", only({"staff": 403, "moderator": 200}, 302, anonymous=302)),
    "admin_records": (
        "/admin/community/moderationrecord/", only({"staff": 403, "moderator": 200}, 302, anonymous=302),
    ),
    "admin_games": ("/admin/games/game/", only({"staff": 403, "moderator": 200}, 302, anonymous=302)),
    "admin_events": ("/admin/games/gameevent/", only({"staff": 403, "moderator": 200}, 302, anonymous=302)),
    "admin_players": ("/admin/auth/user/", only({"staff": 403, "moderator": 200}, 302, anonymous=302)),
}  # fmt: skip


@pytest.mark.parametrize(("page", "role"), cases(PAGES))
def test_page_by_role(world, page, role):
    path, expected = PAGES[page]
    response = web_client(world, role).get(fill(path, world))
    assert response.status_code == expected[role]
    if expected[role] == 302:
        assert response["Location"].startswith("/admin/login/")


@pytest.mark.parametrize("role", ROLES)
def test_the_lobby_page_knows_who_is_logged_in_and_not_a_banned_account(world, role):
    page = web_client(world, role).get("/").content.decode()
    name = "" if role in UNKNOWN else world.users[role].username
    assert f'data-user="{name}"' in page
