"""The bench's move client (bench/load.py ``MoveConnection``) against a tiny
HTTP/1.1 server: keep-alive, a server's idle close, ``Connection: close``."""

from __future__ import annotations

import asyncio

import pytest

from bench.load import MoveConnection, Player, Table, _post


class TinyServer:
    """Answers each POST with its body echoed; ``close_after`` answers per connection
    before the server closes it while idle; ``say_close`` answers with Connection: close."""

    def __init__(
        self,
        close_after: int | None = None,
        say_close: bool = False,
        chunked: bool = False,
        garbage: bool = False,
    ) -> None:
        self.close_after = close_after
        self.say_close = say_close
        self.chunked = chunked
        self.garbage = garbage
        self.connections = 0
        self.requests: list[bytes] = []
        self.handlers: set[asyncio.Task] = set()

    async def handle(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self.connections += 1
        self.handlers.add(asyncio.current_task())
        answered = 0
        try:
            while True:
                head = await reader.readuntil(b"\r\n\r\n")
                length = next(
                    int(line.split(b":")[1])
                    for line in head.split(b"\r\n")
                    if line.lower().startswith(b"content-length:")
                )
                body = await reader.readexactly(length)
                self.requests.append(head.split(b"\r\n")[0] + b" " + body)
                if self.garbage:
                    writer.write(b"SSH-2.0-not-http\r\n\r\n")
                    await writer.drain()
                    continue
                closing = b"Connection: close\r\n" if self.say_close else b""
                if self.chunked:
                    half = len(body) // 2
                    chunks = b"".join(
                        b"%x\r\n%s\r\n" % (len(part), part) for part in (body[:half], body[half:])
                    )
                    answer = b"transfer-encoding: chunked\r\n\r\n" + chunks + b"0\r\n\r\n"
                else:
                    answer = f"content-length: {len(body)}\r\n\r\n".encode() + body
                writer.write(
                    b"HTTP/1.1 201 Created\r\ncontent-type: application/json\r\n" + closing + answer
                )
                await writer.drain()
                answered += 1
                if self.say_close or answered == self.close_after:
                    break
        except asyncio.IncompleteReadError:
            pass
        writer.close()

    async def __aenter__(self) -> str:
        self.server = await asyncio.start_server(self.handle, "127.0.0.1", 0)
        return f"http://127.0.0.1:{self.server.sockets[0].getsockname()[1]}"

    async def __aexit__(self, *exc: object) -> None:
        # Each handler sees its client's close before the loop ends.
        await asyncio.wait(self.handlers, timeout=5)
        self.server.close()
        await self.server.wait_closed()


def play(server: TinyServer, bodies: list[bytes], pause: float = 0.0) -> list[tuple[int, bytes]]:
    async def run() -> list[tuple[int, bytes]]:
        async with server as url:
            connection = MoveConnection(url, "k3y")
            answers = []
            for body in bodies:
                answers.append(await connection.post("/api/tables/t/commands/", body))
                await asyncio.sleep(pause)
            connection.close()
            return answers

    return asyncio.run(run())


def test_moves_share_one_kept_alive_connection() -> None:
    server = TinyServer()
    answers = play(server, [b'{"a":1}', b'{"b":2}', b'{"c":3}'])
    assert answers == [(201, b'{"a":1}'), (201, b'{"b":2}'), (201, b'{"c":3}')]
    assert server.connections == 1
    assert server.requests[0] == b'POST /api/tables/t/commands/ HTTP/1.1 {"a":1}'


def test_a_connection_the_server_closed_while_idle_is_opened_again_and_the_move_sent_once_more() -> (
    None
):
    server = TinyServer(close_after=1)
    answers = play(server, [b'{"a":1}', b'{"b":2}'], pause=0.05)
    assert answers == [(201, b'{"a":1}'), (201, b'{"b":2}')]
    assert server.connections == 2
    assert len(server.requests) == 2  # the closed connection never saw the second move


def test_an_answer_saying_connection_close_ends_the_connection() -> None:
    server = TinyServer(say_close=True)
    answers = play(server, [b'{"a":1}', b'{"b":2}'])
    assert [status for status, _ in answers] == [201, 201]
    assert server.connections == 2


def test_a_server_that_is_not_there_is_an_error_not_a_retry() -> None:
    async def run() -> None:
        server = await asyncio.start_server(lambda r, w: None, "127.0.0.1", 0)
        port = server.sockets[0].getsockname()[1]
        server.close()
        await server.wait_closed()
        await MoveConnection(f"http://127.0.0.1:{port}", "k3y").post("/x/", b"{}")

    with pytest.raises(OSError):
        asyncio.run(run())


def test_a_chunked_answer_is_read_whole_and_the_connection_kept() -> None:
    server = TinyServer(chunked=True)
    answers = play(server, [b'{"head_seq":7}', b'{"head_seq":9}'])
    assert answers == [(201, b'{"head_seq":7}'), (201, b'{"head_seq":9}')]
    assert server.connections == 1


def test_an_answer_that_is_not_http_is_a_counted_error_not_a_crash() -> None:
    async def run() -> object:
        server = TinyServer(garbage=True)
        async with server as url:
            player = Player(seat_name="Ada", token="k3y", server=url)
            table = Table(game_id="t", players=[player])
            try:
                return await _post(table, player, {"command": {"type": "pass"}})
            finally:
                player.poster.close()

    kind, _ = asyncio.run(run())
    assert kind == "http_ValueError"
