"""Reading the bot API's NDJSON streams in a test: a GET through the project's ASGI app
(every middleware, Django's handler, then the stream hand-off), its body read line by line
as it streams.

Every read has a deadline (``READ_SECONDS``), keep-alive lines included: a stream that
stays open but never brings the line a test waits for fails the test, it never hangs."""

from __future__ import annotations

import json
import time
from typing import Any

from asgiref.testing import ApplicationCommunicator

from kingdom.asgi import application

READ_SECONDS = 10


class NdjsonStream:
    """``await stream.open()``, then ``await stream.line()`` for each line (an empty line:
    ``""``, a keep-alive) until ``stream.ended``; ``await stream.close()`` hangs up."""

    def __init__(
        self, path: str, token: str | None = None, query: str = "", accept: str | None = None
    ) -> None:
        headers = [(b"host", b"testserver")]
        if accept is not None:
            headers.append((b"accept", accept.encode()))
        if token is not None:
            headers.append((b"authorization", f"Token {token}".encode()))
        scope = {
            "type": "http",
            "asgi": {"version": "3.0"},
            "http_version": "1.1",
            "method": "GET",
            "scheme": "http",
            "path": path,
            "raw_path": path.encode(),
            "query_string": query.encode(),
            "headers": headers,
            "client": ("127.0.0.1", 40000),
            "server": ("testserver", 80),
        }
        self.app = ApplicationCommunicator(application, scope)
        self.buffer = b""
        self.ended = False
        self.status = 0
        self.headers: dict[bytes, bytes] = {}

    async def open(self) -> int:
        await self.app.send_input({"type": "http.request", "body": b"", "more_body": False})
        start = await self.app.receive_output(READ_SECONDS)
        assert start["type"] == "http.response.start"
        self.status = start["status"]
        self.headers = dict(start["headers"])
        return self.status

    async def body(self) -> Any:
        """A refusal's whole body, as JSON."""
        deadline = _deadline()
        while not self.ended:
            await self._more(deadline)
        return json.loads(self.buffer)

    async def _more(self, deadline: float) -> None:
        left = deadline - time.monotonic()
        if left <= 0:
            raise AssertionError(f"nothing awaited came on the stream in {READ_SECONDS} s")
        try:
            message = await self.app.receive_output(left)
        except TimeoutError as exc:
            raise AssertionError(f"the stream sent nothing in {READ_SECONDS} s") from exc
        assert message["type"] == "http.response.body"
        self.buffer += message.get("body", b"")
        self.ended = not message.get("more_body", False)
        if self.ended:
            # As a server does, let the application finish: Django closes the request's
            # database connection after the last body message (request_finished), and a
            # test that ended here would otherwise cancel that and leak it from the pool.
            await self.app.wait(READ_SECONDS)

    async def line(self, deadline: float | None = None) -> dict[str, Any] | str:
        """The next line: a JSON object, or "" for a keep-alive."""
        deadline = _deadline() if deadline is None else deadline
        while b"\n" not in self.buffer:
            assert not self.ended, "the stream ended"
            await self._more(deadline)
        text, self.buffer = self.buffer.split(b"\n", 1)
        return json.loads(text) if text else ""

    async def next_object(self, skip_empty: bool = True) -> dict[str, Any]:
        """The next object line, keep-alives skipped, within ``READ_SECONDS``."""
        deadline = _deadline()
        while True:
            found = await self.line(deadline)
            if found != "" or not skip_empty:
                assert isinstance(found, dict)
                return found

    async def rest(self) -> list[dict[str, Any]]:
        """Every object line until the stream ends, each within ``READ_SECONDS``."""
        lines = []
        deadline = _deadline()
        while True:
            if b"\n" not in self.buffer and self.ended:
                return lines
            if b"\n" not in self.buffer:
                await self._more(deadline)
                continue
            found = await self.line(deadline)
            if found != "":
                lines.append(found)
                deadline = _deadline()

    async def close(self) -> None:
        # Once, as daphne delivers it: Django's handler may still be listening and take
        # it, and the stream must end all the same (games/api/stream_handoff.py).
        await self.app.send_input({"type": "http.disconnect"})
        try:
            await self.app.wait(READ_SECONDS)
        except Exception:  # noqa: BLE001 - cancelled on hang-up, as a server does
            self.app.stop(exceptions=False)


def _deadline() -> float:
    return time.monotonic() + READ_SECONDS
