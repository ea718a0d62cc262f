"""The bot API's NDJSON streams (``application/x-ndjson``, one JSON object a line, an
empty line at least every ``KEEPALIVE`` seconds), after Lichess's:

- ``GET /api/stream/event/``: the account's challenges and games (``challenge``,
  ``challengeCanceled``, ``challengeDeclined``, ``gameStart``, ``gameFinish``); on opening,
  the games in progress and the open incoming challenges, so a restarted bot resumes;
- ``GET /api/bot/game/stream/<id>/?after=<seq>``: one game as the caller's seat sees it
  (``gameFull``, then a ``gameState`` per new head, ``chatLine``, ``opponentGone``),
  ending after the result.

A DRF view authenticates and checks the request (JSON 4xx), then answers a Django
``StreamingHttpResponse`` over an async generator, which the ASGI server drives on its
event loop. The generator reads a fresh channel of the channel layer (``new_channel``,
``group_add``, ``receive``: public APIs), joined to the groups the rest of the service
already publishes on, so a line written on any process reaches a stream on any other.

A game stream's frames come from the one read path: the writer's per-audience update
(``news.frame_from``) or, when a stream missed one, the events after its own seq read
again (``news.read_frame``), the same functions the game's sockets use. Every game line
carries ``seq``, the head it brings the reader to; reopening with ``?after=<seq>``
resumes, so a lost line costs nothing.
"""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from typing import Any

from channels.db import database_sync_to_async
from channels.layers import get_channel_layer
from django.db import connections
from django.http import StreamingHttpResponse
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import permissions
from rest_framework.decorators import (
    api_view,
    permission_classes,
    renderer_classes,
    throttle_classes,
)
from rest_framework.renderers import JSONRenderer
from rest_framework.request import Request

from games import publishing, selectors, services
from games.api import responses as answers
from games.api.responses import errors
from games.api.signed_in import signed_in_user
from games.api.stream_handoff import handed_off
from games.errors import ServiceError
from games.json_output import encode
from games.models import Game
from games.publishing import news
from games.selectors import challenges as challenge_reads
from games.selectors import sources
from games.services import account_news

NDJSON = "application/x-ndjson"
# An empty line at least this often (the contract says every 7 s at the latest).
KEEPALIVE = 5.0
# Group memberships are renewed this often: a layer forgets them after a day (the
# channels_redis default) or when Redis restarts empty.
RENEW_SECONDS = 600.0
OVER = (Game.Status.FINISHED, Game.Status.ABORTED)


class NdjsonRenderer(JSONRenderer):
    """Lets a client that asks for ``Accept: application/x-ndjson`` (as stream clients
    do) reach the streams (DRF's content negotiation answers 406 to a type no renderer
    offers). Only a refusal is rendered by it: one JSON line."""

    media_type = NDJSON
    format = "ndjson"

    def render(
        self, data: Any, accepted_media_type: Any = None, renderer_context: Any = None
    ) -> bytes:
        return super().render(data, accepted_media_type, renderer_context) + b"\n"


class _Channel:
    """A fresh channel of the layer, in some groups, read one message at a time without
    ever cancelling a pending ``receive`` (a keep-alive leaves it waiting)."""

    def __init__(self, groups: list[str]) -> None:
        self.layer = get_channel_layer()
        self.groups = groups
        self.name = ""
        self.pending: asyncio.Future | None = None
        self.renewed = 0.0

    async def open(self) -> None:
        publishing.remember_server_loop()
        self.name = await self.layer.new_channel("stream.")
        await self.join()

    async def join(self) -> None:
        for group in self.groups:
            await self.layer.group_add(group, self.name)
        self.renewed = time.monotonic()

    async def next(self, timeout: float) -> dict[str, Any] | None:
        """The next message, or None after ``timeout`` seconds without one."""
        if time.monotonic() - self.renewed > RENEW_SECONDS:
            await self.join()
        if self.pending is None:
            self.pending = asyncio.ensure_future(self.layer.receive(self.name))
        done, _ = await asyncio.wait({self.pending}, timeout=timeout)
        if not done:
            return None
        message, self.pending = self.pending.result(), None
        return message

    async def close(self) -> None:
        if self.pending is not None:
            self.pending.cancel()
        for group in self.groups:
            await self.layer.group_discard(group, self.name)


def _line(value: dict[str, Any]) -> bytes:
    return (encode(value) + "\n").encode()


async def _lines(
    channel: _Channel,
    first: list[dict[str, Any]],
    handle: Callable[[dict[str, Any]], Awaitable[list[dict[str, Any]] | None]],
    catch_up: Callable[[], Awaitable[list[dict[str, Any]]]] | None = None,
) -> AsyncIterator[bytes]:
    """``first``, then what ``catch_up()`` finds once the channel listens (what happened
    between the first read and the subscription), then what ``handle(message)`` makes of
    each message (a list of lines, or None to end the stream), with an empty line
    whenever ``KEEPALIVE`` seconds pass without one. A line with ``end`` set is the last."""
    await channel.open()
    try:
        pending = list(first)
        if catch_up is not None and not (first and first[-1].get("end")):
            pending += await catch_up()
        last = time.monotonic()
        while True:
            for value in pending:
                yield _line({k: v for k, v in value.items() if k != "end"})
                last = time.monotonic()
                if value.get("end"):
                    return
            message = await channel.next(max(0.0, KEEPALIVE - (time.monotonic() - last)))
            if message is None:
                pending = []
                yield b"\n"
                last = time.monotonic()
                continue
            lines = await handle(message)
            if lines is None:
                return
            pending = lines
    finally:
        await channel.close()


def _streaming(lines: AsyncIterator[bytes]) -> StreamingHttpResponse:
    # The request's database connection goes back to the pool now, not when the stream
    # ends (Django closes it at request_finished, hours later for a bot's stream): an
    # open stream holds none, and its reads (a game stream's) take one each time. A
    # request inside a transaction (a test's) keeps it.
    for connection in connections.all(initialized_only=True):
        if not connection.in_atomic_block:
            connection.close()
    response = StreamingHttpResponse(handed_off(lines), content_type=NDJSON)
    response["Cache-Control"] = "no-cache"
    response["X-Accel-Buffering"] = "no"  # a proxy must pass each line on at once
    return response


def _closing_groups(request: Request) -> list[str]:
    """The groups whose ``signed.out`` ends a stream: its account's (deactivated,
    banned) and what it was opened with (a token revoked, a session logged out)."""
    user = signed_in_user(request)
    groups = [publishing.account_group(user.pk)]
    if request.auth is not None:  # a token
        groups.append(publishing.api_group(user.pk))
    elif request.session.session_key:
        groups.append(publishing.session_group(request.session.session_key))
    return groups


# ---- the account's events ---------------------------------------------------------------
def _account_opening(user: Any) -> list[dict[str, Any]]:
    services.challenges_expire()
    games = [
        account_news.game_line(g, "gameStart") for g in challenge_reads.games_in_progress(user)
    ]
    incoming = [
        {"type": "challenge", "challenge": challenge_reads.challenge_json(c, direction="in")}
        for c in challenge_reads.open_incoming(user)
    ]
    return games + incoming


@extend_schema(
    responses={
        200: OpenApiResponse(
            answers.StreamLineSerializer, description="NDJSON lines (docs/bot-api.md)"
        ),
        **errors(401, 403),
    },
)
@api_view(["GET"])
@renderer_classes([JSONRenderer, NdjsonRenderer])
@permission_classes([permissions.IsAuthenticated])
@throttle_classes([])
def account_stream(request: Request) -> StreamingHttpResponse:
    """The account's challenges and games, as NDJSON lines, for as long as it is open."""
    user = signed_in_user(request)
    opening = _account_opening(user)
    channel = _Channel([account_news.events_group(user.pk), *_closing_groups(request)])
    # A challenge or a game that started between the opening's read and the channel's
    # subscription is found by reading the opening again once the channel listens; each
    # challenge and game start is sent once, whichever way it came.
    sent = {_once(line) for line in opening}

    def fresh(lines: list[dict[str, Any]]) -> list[dict[str, Any]]:
        new = [line for line in lines if _once(line) is None or _once(line) not in sent]
        sent.update(_once(line) for line in new)
        return new

    @database_sync_to_async
    def catch_up() -> list[dict[str, Any]]:
        return fresh(_account_opening(user))

    async def handle(message: dict[str, Any]) -> list[dict[str, Any]] | None:
        if message.get("type") == "signed.out":  # what it was opened with no longer holds
            return None
        if message.get("type") == "account.event":
            return fresh([message["line"]])
        return []

    return _streaming(_lines(channel, opening, handle, catch_up))


def _once(line: dict[str, Any]) -> tuple[str, str] | None:
    """What makes an account-stream line one to send once: a challenge's invitation and
    a game's start; None for the others."""
    if line["type"] == "challenge":
        return ("challenge", str(line["challenge"]["id"]))
    if line["type"] == "gameStart":
        return ("gameStart", str(line["game"]["id"]))
    return None


# ---- one game, as one seat sees it ------------------------------------------------------
def _state(frame: dict[str, Any]) -> dict[str, Any]:
    """A seat's state from a read-path frame (games/publishing/news.py ``splice``)."""
    view = frame.get("view") or {}
    return {
        "seq": frame["head"],
        "status": frame["status"],
        "to_act": view.get("to_act", []),
        "legal": frame["legal"],
        "clock": view.get("clock"),
        "server_time_ms": frame["server_time_ms"],
        "view": view,
    }


def _gone(frame: dict[str, Any]) -> set[int]:
    """Seats whose player ran out of time (a claim: skip or expel) or is absent."""
    view = frame.get("view") or {}
    clock = view.get("clock") or {}
    return {int(s) for s in clock.get("timed_out", [])} | {int(s) for s in view.get("absent", [])}


class _GameReader:
    """What one game stream has sent: its seq, its seat, who was gone."""

    def __init__(self, game: Game, user_id: int | None, after: int | None) -> None:
        self.game_id = game.id
        self.user_id = user_id
        self.sent_seq = game.head_seq if after is None else min(after, game.head_seq)
        self.seat: int | None = None
        self.gone: set[int] = set()

    def full(self, game: Game) -> dict[str, Any]:
        self.seat, frame, last = self._read(fresh=True)
        parsed = json.loads(frame) if frame is not None else {}
        self.sent_seq = max(self.sent_seq, parsed.get("head", 0))
        self.gone = _gone(parsed)
        return {
            "type": "gameFull",
            "id": str(game.id),
            "seq": self.sent_seq,
            "ruleset": game.ruleset,
            "options": game.options,
            "time_control": game.time_control or None,
            "seats": [
                {k: s[k] for k in ("seat", "name", "user", "bot", "bot_account")}
                for s in selectors.seats_json(game)
            ],
            "your_seat": self.seat,
            "state": _state(parsed),
            "events": parsed.get("events", []),
            "end": parsed.get("status") in OVER,
        }

    def _read(self, fresh: bool) -> tuple[int | None, str | None, int | None]:
        return news.read_frame(self.game_id, self.user_id, self.sent_seq, fresh=fresh)

    def state_lines(self, frame: str | None) -> list[dict[str, Any]]:
        if frame is None:
            return []
        parsed = json.loads(frame)
        self.sent_seq = max(self.sent_seq, parsed["head"])
        lines: list[dict[str, Any]] = [
            {"type": "gameState", **_state(parsed), "events": parsed["events"]}
        ]
        gone = _gone(parsed) - ({self.seat} if self.seat is not None else set())
        for seat in sorted(gone ^ (self.gone - {self.seat})):
            lines.append(
                {"type": "opponentGone", "seq": self.sent_seq, "seat": seat, "gone": seat in gone}
            )
        self.gone = gone
        if parsed["status"] in OVER:
            lines[-1]["end"] = True
        return lines

    def advanced(self, message: dict[str, Any]) -> list[dict[str, Any]]:
        """A head's message: this seat's part of the writer's update, else a read."""
        head = message.get("head", 0)
        if head <= self.sent_seq:
            return []
        published = message.get("news")
        part = None
        if published is not None:
            part = news.frame_from(published, head, self.user_id, self.sent_seq)
        if part is None or part[1] is None:
            part = self._read(fresh=False)
        self.seat, frame, _last = part
        return self.state_lines(frame)

    def caught_up(self) -> list[dict[str, Any]]:
        """The heads written since the first read, if any (read from the log)."""
        self.seat, frame, _last = self._read(fresh=False)
        return self.state_lines(frame)


def _chat_line(reader: _GameReader, message: dict[str, Any]) -> list[dict[str, Any]]:
    source = sources.chat_source()
    line = source.line(message) if source is not None else None
    return [] if line is None else [{"type": "chatLine", "seq": reader.sent_seq, **line}]


@extend_schema(
    parameters=[OpenApiParameter("after", int, description="resume after this seq")],
    responses={
        200: OpenApiResponse(
            answers.StreamLineSerializer, description="NDJSON lines (docs/bot-api.md)"
        ),
        **errors(400, 401, 403, 404),
    },
)
@api_view(["GET"])
@renderer_classes([JSONRenderer, NdjsonRenderer])
@permission_classes([permissions.IsAuthenticated])
@throttle_classes([])
def game_stream(request: Request, game_id: str) -> StreamingHttpResponse:
    """One game as your seat sees it (a spectator's view if you have none), as NDJSON
    lines, until its result."""
    game = selectors.get_game(game_id)
    after_text = request.query_params.get("after")
    try:
        after = None if after_text in (None, "") else max(0, int(after_text))
    except ValueError as exc:
        raise ServiceError("invalid", "after must be a whole number.") from exc
    user = request.user
    reader = _GameReader(game, user.pk, after)
    opening = [reader.full(game)]
    source = sources.chat_source()
    groups = [publishing.game_group(game.id), *_closing_groups(request)]
    if source is not None:
        groups.append(source.group(game.id))

    @database_sync_to_async
    def handle_in_thread(message: dict[str, Any]) -> list[dict[str, Any]] | None:
        kind = message.get("type")
        if kind in {"signed.out", "game.closed"}:  # a reopened stream resumes by seq
            return None
        if kind == "game.advanced":
            return reader.advanced(message)
        if kind == "chat.posted":
            return _chat_line(reader, message)
        return []

    async def handle(message: dict[str, Any]) -> list[dict[str, Any]] | None:
        if message.get("type") not in {"signed.out", "game.closed", "game.advanced", "chat.posted"}:
            return []
        return await handle_in_thread(message)

    return _streaming(
        _lines(_Channel(groups), opening, handle, database_sync_to_async(reader.caught_up))
    )
