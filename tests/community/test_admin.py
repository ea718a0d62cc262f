"""The moved models' admin pages answer at their new addresses and at the old ones."""

from __future__ import annotations

import pytest

from tests.games.helpers import make_moderator

pytestmark = pytest.mark.django_db

PAGES = ["chatmessage", "report", "moderationrecord", "mute"]
OLD = {"chatmessage": "games", "report": "games", "moderationrecord": "games", "mute": "players"}


@pytest.mark.parametrize("model", PAGES)
def test_a_moderator_finds_the_list_at_the_new_and_the_old_address(client, make_user, model):
    mod = make_user("mo", staff=True)
    make_moderator(mod)
    client.force_login(mod)
    assert client.get(f"/admin/community/{model}/").status_code == 200
    assert client.get(f"/admin/{OLD[model]}/{model}/").status_code == 200


@pytest.mark.parametrize("model", PAGES)
def test_staff_without_the_permission_is_refused_at_both(client, make_user, model):
    client.force_login(make_user("st", staff=True))
    assert client.get(f"/admin/community/{model}/").status_code == 403
    assert client.get(f"/admin/{OLD[model]}/{model}/").status_code == 403
