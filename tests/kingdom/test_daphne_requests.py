"""kingdom/ops/daphne_requests.py: daphne's requests skip Twisted's form parsing (Django
parses bodies itself), and the deployed application sets that up."""

from __future__ import annotations

from unittest import mock

import pytest
from daphne import http_protocol
from twisted.web.test.requesthelper import DummyChannel

from kingdom.ops.daphne_requests import leave_bodies_to_django


def received_form_post(request_class: type) -> http_protocol.WebRequest:
    """A POST of ``a=1`` as an HTML form, received by ``request_class`` (its handing to
    the application stubbed out: only what Twisted does on receipt is looked at)."""
    channel = DummyChannel()
    channel.factory = mock.Mock()
    request = request_class(channel)
    request.process = lambda: None
    request.requestHeaders.setRawHeaders(b"content-type", [b"application/x-www-form-urlencoded"])
    request.gotLength(3)
    request.handleContentChunk(b"a=1")
    request.requestReceived(b"POST", b"/accounts/login/", b"HTTP/1.1")
    return request


@pytest.fixture
def daphne_as_deployed(monkeypatch):
    monkeypatch.setattr(http_protocol, "WebRequest", http_protocol.WebRequest)
    assert leave_bodies_to_django()
    return http_protocol.WebRequest


def test_twisted_on_its_own_parses_a_form_post_into_args():
    base = http_protocol.WebRequest
    while getattr(base, "leaves_bodies_to_django", False):
        base = base.__mro__[1]
    assert received_form_post(base).args == {b"a": [b"1"]}


def test_daphnes_requests_leave_the_body_to_django(daphne_as_deployed):
    with mock.patch("twisted.web.http._parseContentType", side_effect=AssertionError):
        request = received_form_post(daphne_as_deployed)
    assert request.args == {}
    request.content.seek(0)
    assert request.content.read() == b"a=1"  # what daphne hands to the application


def test_daphne_builds_its_connections_with_that_request_class(daphne_as_deployed):
    factory = http_protocol.HTTPFactory(server=mock.Mock())
    protocol = factory.buildProtocol(("127.0.0.1", 40000))
    assert protocol.requestFactory is daphne_as_deployed


def test_setting_it_up_twice_keeps_one_class(daphne_as_deployed):
    assert leave_bodies_to_django()
    assert http_protocol.WebRequest is daphne_as_deployed


def test_the_deployed_application_sets_it_up():
    import kingdom.asgi  # noqa: F401 - what daphne imports before it serves

    assert http_protocol.WebRequest.leaves_bodies_to_django
