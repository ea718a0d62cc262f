"""What the streams' hand-off keeps (games/api/stream_handoff.py): Django's handler is done
with an open stream (its request finished, its thread gone) while the stream goes on; the
lines end the response when they end; a hang-up closes them (their ``finally`` runs)."""

from __future__ import annotations

import asyncio

import pytest
from asgiref.sync import async_to_sync, sync_to_async
from django.core.signals import request_finished
from rest_framework.authtoken.models import Token

from games import services
from games.api.stream_handoff import StreamHandoff, handed_off, stream
from tests.games.ndjson import NdjsonStream

pytestmark = pytest.mark.django_db(transaction=True)


def test_an_open_stream_is_done_with_in_django_and_still_brings_lines(make_user):
    ana, bob = make_user("ana"), make_user("bob")
    key = Token.objects.get_or_create(user=bob)[0].key
    finished = []

    def count(sender, **kwargs):
        finished.append(sender)

    request_finished.connect(count)
    try:

        async def scenario():
            events = NdjsonStream("/api/stream/event/", key)
            assert await events.open() == 200
            # The head came, then the body so far: Django's handler has finished the
            # request (request_finished sent) while the stream stays open.
            for _ in range(100):
                if finished:
                    break
                await asyncio.sleep(0.05)
            assert finished
            await sync_to_async(services.challenge_create)(
                challenger=ana, username="bob", body={"ruleset": "kingdoms"}
            )
            line = await events.next_object()
            assert line["type"] == "challenge" and not events.ended
            await events.close()

        async_to_sync(scenario)()
    finally:
        request_finished.disconnect(count)


def test_without_the_middleware_the_lines_are_the_responses_own():
    async def lines():
        yield b"{}\n"

    produced = lines()
    assert handed_off(produced) is produced


def _recording_send(sent: list[dict]):
    async def send(message):
        sent.append(dict(message))

    return send


def test_lines_that_end_end_the_response():
    sent: list[dict] = []

    async def lines():
        yield b'{"a": 1}\n'
        yield b'{"b": 2}\n'

    async def never_hangs_up():
        await asyncio.Event().wait()
        return {}

    async_to_sync(stream)(lines(), never_hangs_up, _recording_send(sent))
    assert [m["body"] for m in sent] == [b'{"a": 1}\n', b'{"b": 2}\n', b""]
    assert [m["more_body"] for m in sent] == [True, True, False]


def test_a_hang_up_closes_the_lines():
    sent: list[dict] = []
    closed = []

    async def lines():
        try:
            yield b"\n"
            await asyncio.Event().wait()  # idle, as a stream waiting on the channel layer
            yield b"never\n"
        finally:
            closed.append(True)

    async def hangs_up_after_the_first_line():
        while not sent:
            await asyncio.sleep(0.01)
        return {"type": "http.disconnect"}

    async_to_sync(stream)(lines(), hangs_up_after_the_first_line, _recording_send(sent))
    assert closed == [True]
    assert [m["body"] for m in sent] == [b"\n"]  # no end sent to a client that left


def test_a_hang_up_heard_by_django_s_handler_ends_the_stream_too():
    """A server may deliver the disconnect once; Django's handler, listening while the
    view runs, may be the one to take it."""
    closed = []

    async def lines():
        try:
            while True:
                await asyncio.sleep(0.01)
                yield b"\n"
        finally:
            closed.append(True)

    async def django(scope, receive, send):
        assert (await receive())["type"] == "http.disconnect"  # Django's listener took it
        handed_off(lines())

    delivered = []

    async def receive_once():
        if delivered:
            await asyncio.Event().wait()  # nothing more ever comes
        delivered.append(True)
        return {"type": "http.disconnect"}

    async def scenario():
        app = StreamHandoff(django)
        scope = {"type": "http", "path": "/api/stream/event/"}
        await asyncio.wait_for(app(scope, receive_once, _recording_send([])), timeout=5)

    async_to_sync(scenario)()
    assert closed == [True]
