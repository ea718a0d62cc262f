"""kingdom/ops/threading.py: under ASGI a request's signals, middleware, view and ORM run
in one thread, entered once from the event loop and left once; the threads are reused."""

from __future__ import annotations

import threading
from concurrent.futures import ThreadPoolExecutor

import pytest
from asgiref import sync
from asgiref.sync import async_to_sync
from channels.testing import HttpCommunicator

from kingdom.ops.threading import get_asgi_application

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def hops(monkeypatch):
    """Each crossing between the event loop and a thread during a request, by kind: work
    handed to a thread (asgiref's SyncToAsync hands it to an executor too), and
    AsyncToSync's way back."""
    counted = {"into a thread": 0, "back to the loop": 0}
    into, back = ThreadPoolExecutor.submit, sync.AsyncToSync.__call__

    def counted_into(self, *args, **kwargs):
        counted["into a thread"] += 1
        return into(self, *args, **kwargs)

    def counted_back(self, *args, **kwargs):
        counted["back to the loop"] += 1
        return back(self, *args, **kwargs)

    monkeypatch.setattr(ThreadPoolExecutor, "submit", counted_into)
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
    # request_started, the chain and request_finished: one entry, where Django makes three.
    assert hops["into a thread"] == 1


def test_requests_one_after_another_reuse_the_request_thread(monkeypatch):
    from games.api import views

    threads: list[int] = []
    listed = views.TableList.get

    def view(self, request, *args, **kwargs):
        threads.append(threading.get_ident())
        return listed(self, request, *args, **kwargs)

    monkeypatch.setattr(views.TableList, "get", view)
    application = get_asgi_application()
    statuses = [_get(application, "/api/tables/", {})["status"] for _ in range(3)]

    assert statuses == [200, 200, 200]
    assert len(set(threads)) == 1
    assert threads[0] != threading.get_ident()


def test_async_code_a_request_runs_with_async_to_sync_runs_on_the_servers_loop(monkeypatch):
    """As under asgiref's SyncToAsync: /readyz probes the channel layer this way."""
    import asyncio

    from django.http import JsonResponse
    from django.urls import clear_url_caches, path

    import kingdom.urls

    loops: dict[str, object] = {}

    async def where() -> None:
        loops["async_to_sync"] = asyncio.get_running_loop()

    def probe(request):
        async_to_sync(where)()
        return JsonResponse({"ok": True})

    async def request() -> dict:
        loops["server"] = asyncio.get_running_loop()
        communicator = HttpCommunicator(
            get_asgi_application(), "GET", "/probe/", headers=[(b"host", b"testserver")]
        )
        return await communicator.get_response(timeout=30)

    monkeypatch.setattr(
        kingdom.urls, "urlpatterns", [path("probe/", probe), *kingdom.urls.urlpatterns]
    )
    clear_url_caches()
    try:
        response = async_to_sync(request)()
    finally:
        clear_url_caches()

    assert response["status"] == 200
    assert loops["async_to_sync"] is loops["server"]


def test_the_request_signals_run_in_the_request_thread_around_the_view(monkeypatch):
    from django.core.signals import request_finished, request_started

    from games.api import views

    seen: list[tuple[str, int]] = []
    listed = views.TableList.get

    def started(**kwargs):
        seen.append(("started", threading.get_ident()))

    def finished(**kwargs):
        seen.append(("finished", threading.get_ident()))

    def view(self, request, *args, **kwargs):
        seen.append(("view", threading.get_ident()))
        return listed(self, request, *args, **kwargs)

    monkeypatch.setattr(views.TableList, "get", view)
    request_started.connect(started)
    request_finished.connect(finished)
    try:
        response = _get(get_asgi_application(), "/api/tables/", {})
    finally:
        request_started.disconnect(started)
        request_finished.disconnect(finished)

    assert response["status"] == 200
    assert [step for step, _ in seen] == ["started", "view", "finished"]
    assert len({thread for _, thread in seen}) == 1


@pytest.mark.filterwarnings("ignore:StreamingHttpResponse must consume synchronous iterators")
def test_a_streamed_file_is_sent_whole_and_closed_after(tmp_path, monkeypatch):
    from django.http import FileResponse
    from django.urls import path

    import kingdom.urls

    served = tmp_path / "served.bin"
    served.write_bytes(b"x" * 200_000)
    opened: list = []

    def download(request):
        handle = open(served, "rb")  # noqa: SIM115 - the response closes it
        opened.append(handle)
        return FileResponse(handle)

    monkeypatch.setattr(
        kingdom.urls, "urlpatterns", [path("download/", download), *kingdom.urls.urlpatterns]
    )
    from django.urls import clear_url_caches

    clear_url_caches()
    try:
        sent = _messages(get_asgi_application(), "/download/")
    finally:
        clear_url_caches()

    assert sent[0]["status"] == 200
    assert b"".join(message.get("body", b"") for message in sent[1:]) == served.read_bytes()
    assert opened[0].closed


def _messages(application, path: str) -> list[dict]:
    """Every ASGI message a GET sends back (channels' HttpCommunicator wants a body in the
    last one, which Django's streamed answers leave out)."""
    scope = {
        "type": "http",
        "http_version": "1.1",
        "method": "GET",
        "path": path,
        "raw_path": path.encode(),
        "query_string": b"",
        "headers": [(b"host", b"testserver")],
        "scheme": "http",
        "server": ("testserver", 80),
        "client": ("127.0.0.1", 1),
    }
    sent: list[dict] = []

    async def receive() -> dict:
        return {"type": "http.request", "body": b"", "more_body": False}

    async def send(message: dict) -> None:
        sent.append(message)

    async_to_sync(application)(scope, receive, send)
    return sent
