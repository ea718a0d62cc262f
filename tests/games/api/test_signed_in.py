import pytest
from django.contrib.auth.models import AnonymousUser, User
from django.http import HttpRequest
from django.test import RequestFactory
from rest_framework.exceptions import NotAuthenticated
from rest_framework.request import Request

from games.api.signed_in import signed_in_user


def _http(user: User | AnonymousUser) -> HttpRequest:
    http = RequestFactory().post("/api/tables/")
    http.user = user
    return http


def _request(user: User | AnonymousUser) -> Request:
    request = Request(_http(user))
    request.user = user
    return request


def test_the_account_behind_a_signed_in_request():
    ana = User(username="ana")
    assert signed_in_user(_request(ana)) is ana
    assert signed_in_user(_http(ana)) is ana  # an admin action's request


def test_an_anonymous_request_is_drfs_401_not_a_500():
    with pytest.raises(NotAuthenticated):
        signed_in_user(_request(AnonymousUser()))
    with pytest.raises(NotAuthenticated):
        signed_in_user(_http(AnonymousUser()))
