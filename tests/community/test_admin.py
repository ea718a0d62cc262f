"""The community models' admin pages: a moderator's list, refused to staff without the
moderation permission."""

from __future__ import annotations

import pytest

from tests.games.helpers import make_moderator

pytestmark = pytest.mark.django_db

PAGES = ["chatmessage", "report", "moderationrecord", "mute"]


@pytest.mark.parametrize("model", PAGES)
def test_a_moderator_finds_the_list(client, make_user, model):
    mod = make_user("mo", staff=True)
    make_moderator(mod)
    client.force_login(mod)
    assert client.get(f"/admin/community/{model}/").status_code == 200


@pytest.mark.parametrize("model", PAGES)
def test_staff_without_the_permission_is_refused(client, make_user, model):
    client.force_login(make_user("st", staff=True))
    assert client.get(f"/admin/community/{model}/").status_code == 403
