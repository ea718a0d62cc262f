"""The one way in for a move, from ``POST /api/tables/<id>/commands/`` and from a frame
on the game's socket alike: the body rules, the rate limit, who may act (an active
account in a seat, checked by the write path at the head it records on), the write, and
the mapping of a refusal to an answer (``refused``). A bot account plays through the
API only: a move of its that came without its API token (a browser session's, on the
socket or by POST) is refused with ``bot_plays_through_the_api``. The REST view (games/api/views.py
``TableCommands``, the bot API's move) and the socket (games/sockets/consumers.py) only
carry what comes back; the write's notices go to the channel layer on their event loop
(``publishing.asend``): the socket's after its one hand-off, an HTTP move's through
``games.api.middleware.news_middleware`` (``posted``).
"""

from __future__ import annotations

from typing import Any

from rest_framework.request import Request
from rest_framework.response import Response

from games import selectors, services
from games.api.errors import Refusal, refusal_or_failure
from games.api.middleware import with_news
from games.api.serializers import CommandSerializer
from games.api.throttling import refuse_if_throttled
from games.errors import Forbidden
from games.selectors import sources
from games.services import Submitted

THROTTLE_SCOPE = "commands"  # players/throttles.py
BOT_ON_THE_WEB = Forbidden(
    "bot_plays_through_the_api",
    "Bot accounts play through the API with their token (docs/bot-api.md), not on the web.",
)


def move(game_id: Any, user: Any, data: Any, *, from_the_web: bool) -> Submitted:
    """Run one move (``data``: ``{"command", "command_id"?, "expected_seq"?}``) for
    ``user`` through the write path. Raises what ``refusal`` maps to an answer. The
    caller sends the result's ``notices``. ``from_the_web``: the move came without the
    account's API token, and a bot account's is refused."""
    if user is None or not user.is_authenticated:
        raise Forbidden("not_authenticated", "Log in (or open the socket with a ticket) to play.")
    if from_the_web and sources.is_bot_account(user):
        raise BOT_ON_THE_WEB
    serializer = CommandSerializer(data=data)
    serializer.is_valid(raise_exception=True)
    body = serializer.validated_data
    refuse_if_throttled(THROTTLE_SCOPE, user)
    return services.game_submit(
        game_id=game_id,
        user=user,
        command=body["command"],
        command_id=body.get("command_id"),
        expected_seq=body.get("expected_seq"),
        publish=False,
    )


def posted(request: Request, game_id: Any) -> Response:
    """A move by HTTP POST (``/api/tables/<id>/commands/``, ``/api/bot/game/<id>/move/``):
    the move and its answer, with its notices left on the response for
    ``news_middleware`` to publish (else no stream or socket hears of the new head until
    someone else moves). Without a token (``request.auth``) it is a browser session's."""
    user = request.user
    result = move(game_id, user, request.data, from_the_web=request.auth is None)
    status, body = answer(result, user)
    return with_news(Response(body, status=status), result.notices)


def answer(result: Submitted, user: Any) -> tuple[int, dict[str, Any]]:
    """A recorded move's answer: 201 (200 for a retry of a recorded ``command_id``) and
    the new head with the events as the mover's seat sees them."""
    seat = selectors.viewer_seat_among(result.seats or [], user)
    update = None
    if result.news is not None and not result.replayed:
        update = result.news["updates"].get("-" if seat is None else str(seat))
    if update is not None:
        events = update["events"]  # as the write computed them for this seat's sockets
    else:
        game = result.game
        assert game is not None, "a move's write read its game"
        names = selectors.seat_names(game, result.seats)
        events = selectors.redacted_events(game, result.events, seat, names)
    body = {"head_seq": result.head_seq, "replayed": result.replayed, "events": events}
    return (200 if result.replayed else 201), body


def refused(exc: Exception) -> Refusal:
    """The answer to a move that raised ``exc``: the API's mapping, or a logged 500."""
    return refusal_or_failure(exc, "a move")
