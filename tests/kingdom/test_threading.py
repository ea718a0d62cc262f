"""kingdom/ops/threading.py: under ASGI a request's middleware, view and ORM run in one
thread, entered once from the event loop and left once."""

from __future__ import annotations

import threading

import pytest
from asgiref import sync
from asgiref.sync import async_to_sync
from channels.testing import HttpCommunicator

from kingdom.ops.threading import get_asgi_application

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def hops(monkeypatch):
    """Each crossing between the event loop and a thread during a request, by kind."""
    counted = {"into a thread": 0, "back to the loop": 0}
    into, back = sync.SyncToAsync.__call__, sync.AsyncToSync.__call__

    async def counted_into(self, *args, **kwargs):
        counted["into a thread"] += 1
        return await into(self, *args, **kwargs)

    def counted_back(self, *args, **kwargs):
        counted["back to the loop"] += 1
        return back(self, *args, **kwargs)

    monkeypatch.setattr(sync.SyncToAsync, "__call__", counted_into)
    monkeypatch.setattr(sync.AsyncToSync, "__call__", counted_back)
    return counted


def _get(application, path: str, hops: dict[str, int]) -> dict:
    async def request() -> dict:
        hops.update({kind: 0 for kind in hops})  # this call's own async_to_sync aside
        communicator = HttpCommunicator(
            application, "GET", path, headers=[(b"host", b"testserver")]
        )
        response = await communicator.get_response(timeout=30)
        await communicator.wait(timeout=30)
        return response

    return async_to_sync(request)()


def test_a_request_runs_its_middleware_and_view_in_one_thread_entered_once(hops, monkeypatch):
    from django.contrib.sessions.middleware import SessionMiddleware

    from games.api import views

    threads: dict[str, int] = {}
    process_request, listed = SessionMiddleware.process_request, views.TableList.get

    def session_middleware(self, request):
        threads["session middleware"] = threading.get_ident()
        return process_request(self, request)

    def view(self, request, *args, **kwargs):
        threads["view"] = threading.get_ident()
        return listed(self, request, *args, **kwargs)

    monkeypatch.setattr(SessionMiddleware, "process_request", session_middleware)
    monkeypatch.setattr(views.TableList, "get", view)
    application = get_asgi_application()
    response = _get(application, "/api/tables/", hops)

    assert response["status"] == 200
    assert threads["view"] == threads["session middleware"] != threading.get_ident()
    # Django's own ASGI handler comes back to the event loop below the middleware and
    # enters the thread again for the view; this one never comes back mid-request.
    assert hops["back to the loop"] == 0
    assert hops["into a thread"] >= 1
