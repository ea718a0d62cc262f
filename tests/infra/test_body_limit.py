"""A request body is refused at its limit, before the rest of it is read: by its
Content-Length at once, or (chunked, or lying) at the byte past the limit; a body that
does not arrive in time is a 408. Under /api/ the refusals are JSON."""

from __future__ import annotations

import asyncio
import json

import pytest
from django.core.handlers.asgi import ASGIHandler

from infra.body_limit import BodyLimit

API_LIMIT = 64 * 1024
SITE_LIMIT = 256 * 1024


class Client:
    """Plays the server's part: feeds ``chunks`` to the app, then waits forever (a body
    that never ends, or the connection left open), and keeps what the app sends."""

    def __init__(self, chunks: list[bytes], endless: bool = False, stall: bool = False) -> None:
        self.chunks = list(chunks)
        self.endless = endless
        self.stall = stall
        self.reads = 0
        self.sent: list[dict] = []

    async def receive(self) -> dict:
        self.reads += 1
        if self.endless:
            return {"type": "http.request", "body": b"x" * 16384, "more_body": True}
        if self.chunks:
            chunk = self.chunks.pop(0)
            more = bool(self.chunks) or self.stall
            return {"type": "http.request", "body": chunk, "more_body": more}
        await asyncio.Event().wait()  # a client that sends no more
        raise AssertionError("unreachable")

    async def send(self, message: dict) -> None:
        self.sent.append(message)

    @property
    def status(self) -> int:
        return self.sent[0]["status"]

    @property
    def headers(self) -> dict[bytes, bytes]:
        return dict(self.sent[0]["headers"])

    @property
    def body(self) -> bytes:
        return b"".join(m.get("body", b"") for m in self.sent[1:])


def scope(path: str = "/api/tables/", method: str = "POST", length: int | None = None) -> dict:
    headers = [(b"host", b"testserver"), (b"content-type", b"application/json")]
    if length is not None:
        headers.append((b"content-length", str(length).encode()))
    return {
        "type": "http",
        "asgi": {"version": "3.0"},
        "http_version": "1.1",
        "method": method,
        "scheme": "http",
        "path": path,
        "raw_path": path.encode(),
        "query_string": b"",
        "root_path": "",
        "headers": headers,
        "client": ("127.0.0.1", 5000),
        "server": ("testserver", 80),
    }


class Echo:
    """An app that reads the whole body and answers it back."""

    def __init__(self) -> None:
        self.called = False

    async def __call__(self, scope: dict, receive, send) -> None:
        self.called = True
        body, more = b"", True
        while more:
            message = await receive()
            body += message.get("body", b"")
            more = message.get("more_body", False)
        await send({"type": "http.response.start", "status": 200, "headers": []})
        await send({"type": "http.response.body", "body": body})


def limited(app, timeout: float = 5.0) -> BodyLimit:
    return BodyLimit(app, api_max_bytes=API_LIMIT, max_bytes=SITE_LIMIT, timeout=timeout)


def run(app, scope: dict, client: Client) -> None:
    asyncio.run(asyncio.wait_for(app(scope, client.receive, client.send), 5))


def test_a_declared_length_over_the_limit_is_refused_before_any_byte_is_read():
    app, client = Echo(), Client([b"{" * 1024])
    run(limited(app), scope(length=40_000_000), client)
    assert client.status == 413 and client.reads == 0 and not app.called
    assert client.headers[b"content-type"] == b"application/json"
    assert json.loads(client.body)["code"] == "too_large"


def test_a_chunked_body_is_read_only_up_to_the_limit():
    app, client = Echo(), Client([], endless=True)
    run(limited(app), scope(), client)
    assert client.status == 413 and not app.called
    assert client.reads == API_LIMIT // 16384 + 1


def test_a_body_longer_than_its_declared_length_is_still_cut_at_the_limit():
    app, client = Echo(), Client([], endless=True)
    run(limited(app), scope(length=10), client)
    assert client.status == 413 and not app.called


def test_other_routes_have_their_own_limit_and_a_plain_answer():
    app, client = Echo(), Client([b"a=1"])
    run(limited(app), scope("/accounts/login/", length=SITE_LIMIT + 1), client)
    assert client.status == 413 and not app.called
    assert client.headers[b"content-type"].startswith(b"text/plain")
    fits, client = Echo(), Client([b"a" * 100_000, b"b" * 100_000])
    run(limited(fits), scope("/accounts/login/"), client)
    assert client.status == 200 and client.body == b"a" * 100_000 + b"b" * 100_000


def test_a_body_that_does_not_arrive_in_time_is_a_408():
    app, client = Echo(), Client([b'{"seats":'], stall=True)
    run(limited(app, timeout=0.05), scope(length=1000), client)
    assert client.status == 408 and not app.called
    assert json.loads(client.body)["code"] == "timeout"


def test_a_body_within_the_limit_reaches_the_app_whole():
    app, client = Echo(), Client([b'{"ruleset":', b' "kingdoms"}'])
    run(limited(app), scope(length=23), client)
    assert client.status == 200 and client.body == b'{"ruleset": "kingdoms"}'


def test_a_bad_content_length_is_a_400():
    app, client = Echo(), Client([b"{}"])
    bad = scope()
    bad["headers"].append((b"content-length", b"12abc"))
    run(limited(app), bad, client)
    assert client.status == 400 and not app.called


@pytest.mark.django_db(transaction=True)
def test_djangos_handler_behind_the_limit_answers_413_at_once():
    client = Client([b"{" * 1024])
    run(limited(ASGIHandler()), scope(length=40_000_000), client)
    assert client.status == 413 and client.reads == 0
    assert json.loads(client.body)["code"] == "too_large"
    passing = Client([b""])
    run(limited(ASGIHandler()), scope("/api/no-such-route/", method="GET"), passing)
    assert passing.status == 404
    assert json.loads(passing.body)["code"] == "not_found"


@pytest.mark.django_db(transaction=True)
def test_the_served_application_refuses_a_large_body_at_once():
    from kingdom.asgi import application

    client = Client([b"{" * 1024])
    run(application, scope(length=40_000_000), client)
    assert client.status == 413 and client.reads == 0
