"""The lobby's "your turn": a signed-in player's lobby socket says, when it opens, in
which of their games in progress it is their turn, then at each new head of those games
whether it is (from the head's news, with no read), and follows a game of theirs that
starts while it is open. Every other page's socket (/ws/turns/) says the same and nothing
else: it is no visit to the lobby, and closing it leaves a quick match alone."""

from __future__ import annotations

import pytest
from asgiref.sync import async_to_sync, sync_to_async
from channels.routing import URLRouter
from channels.testing import WebsocketCommunicator

from games import selectors, services
from games.sockets.routing import websocket_urlpatterns
from tests.games.helpers import humans_game

pytestmark = pytest.mark.django_db(transaction=True)
app = URLRouter(websocket_urlpatterns)


def lobby_of(user, path: str = "/ws/lobby/") -> WebsocketCommunicator:
    communicator = WebsocketCommunicator(app, path)
    communicator.scope["user"] = user
    return communicator


def turns_of(user) -> WebsocketCommunicator:
    """The socket every page but the lobby opens for the navigation's count."""
    return lobby_of(user, "/ws/turns/")


def move_first_legal(game_id, user) -> None:
    game = selectors.get_game(game_id)
    seat = selectors.viewer_seat(game, user)
    (command, *_) = selectors.legal_commands(game, seat)
    services.game_submit(game_id=game.id, user=user, command=command)


def to_move(game, players):
    """(the player to act, the other)"""
    game = selectors.get_game(game.id)
    first = players[0]
    if selectors.legal_commands(game, selectors.viewer_seat(game, first)):
        return first, players[1]
    return players[1], first


@pytest.mark.parametrize("open_socket", [lobby_of, turns_of])
def test_turns_when_the_socket_opens_then_at_each_head(make_user, open_socket):
    ana, bob = make_user("ana"), make_user("bob")
    game = humans_game([ana, bob])
    mover, other = to_move(game, [ana, bob])

    async def scenario() -> list[dict]:
        ws = open_socket(other)
        assert (await ws.connect())[0]
        seen = [await ws.receive_json_from(timeout=5)]
        await sync_to_async(move_first_legal)(game.id, mover)
        seen.append(await ws.receive_json_from(timeout=5))
        await ws.disconnect()
        return seen

    opened, turn = async_to_sync(scenario)()
    assert opened == {"type": "turns", "turns": {str(game.id): False}}
    # Kingdoms passes the turn after each placement: now it is the other player's.
    assert turn == {"type": "turn", "game": str(game.id), "yours": True}


@pytest.mark.parametrize("open_socket", [lobby_of, turns_of])
def test_a_move_made_while_the_socket_opens_is_in_its_turns(make_user, open_socket, monkeypatch):
    """The move lands after the socket's first read of the turns and before it hears the
    game's news: the turns it sends on opening must still say whose turn it is."""
    ana, bob = make_user("ana"), make_user("bob")
    game = humans_game([ana, bob])
    mover, other = to_move(game, [ana, bob])
    reads = []
    read_turns = selectors.turns_of

    def turns_then_a_move(user):
        turns = read_turns(user)
        if not reads:
            move_first_legal(game.id, mover)
        reads.append(turns)
        return turns

    monkeypatch.setattr(selectors, "turns_of", turns_then_a_move)

    async def scenario() -> dict:
        ws = open_socket(other)
        assert (await ws.connect())[0]
        opened = await ws.receive_json_from(timeout=5)
        assert await ws.receive_nothing(timeout=0.3)
        await ws.disconnect()
        return opened

    opened = async_to_sync(scenario)()
    assert reads[0] == {str(game.id): False}, "the first read came before the move"
    assert opened == {"type": "turns", "turns": {str(game.id): True}}


def test_a_game_that_starts_while_the_lobby_is_open_is_followed(make_user):
    ana, bob = make_user("ana"), make_user("bob")

    async def scenario() -> tuple[dict, list[dict]]:
        ws = lobby_of(ana)
        assert (await ws.connect())[0]
        opened = await ws.receive_json_from(timeout=5)
        game = await sync_to_async(humans_game)([ana, bob])
        seen: list[dict] = []
        while not any(m["type"] == "table" and m["table"]["status"] == "active" for m in seen):
            seen.append(await ws.receive_json_from(timeout=5))
        mover, _other = await sync_to_async(to_move)(game, [ana, bob])
        await sync_to_async(move_first_legal)(game.id, mover)
        while seen[-1]["type"] != "turn":
            seen.append(await ws.receive_json_from(timeout=5))
        await ws.disconnect()
        return opened, seen

    opened, seen = async_to_sync(scenario)()
    assert opened == {"type": "turns", "turns": {}}
    assert seen[-1]["type"] == "turn" and isinstance(seen[-1]["yours"], bool)


def test_an_anonymous_lobby_gets_no_turns(make_user):
    async def scenario() -> bool:
        ws = WebsocketCommunicator(app, "/ws/lobby/")
        assert (await ws.connect())[0]
        nothing = await ws.receive_nothing(timeout=0.5)
        await ws.disconnect()
        return nothing

    assert async_to_sync(scenario)()


def test_a_game_that_starts_while_a_page_is_open_is_counted_from_its_start(make_user):
    ana, bob = make_user("ana"), make_user("bob")

    async def scenario() -> tuple[dict, dict, dict, dict]:
        ws = turns_of(ana)
        assert (await ws.connect())[0]
        opened = await ws.receive_json_from(timeout=5)
        game = await sync_to_async(humans_game)([ana, bob])
        started = await ws.receive_json_from(timeout=5)
        mover, _other = await sync_to_async(to_move)(game, [ana, bob])
        await sync_to_async(move_first_legal)(game.id, mover)
        moved = await ws.receive_json_from(timeout=5)
        await ws.disconnect()
        return opened, started, moved, {"game": str(game.id), "ana_moves": mover == ana}

    opened, started, moved, game = async_to_sync(scenario)()
    assert opened == {"type": "turns", "turns": {}}
    # The start's own news went out before the account heard of the game: read once.
    assert started == {"type": "turn", "game": game["game"], "yours": game["ana_moves"]}
    assert moved == {"type": "turn", "game": game["game"], "yours": not game["ana_moves"]}


def test_a_pages_socket_is_no_visit_to_the_lobby(make_user):
    """Another player's table or a quick match says nothing to it, and closing it keeps
    the player's quick match (only leaving the lobby stops looking)."""
    ana, bob = make_user("ana"), make_user("bob")
    services.quick_match_join(user=ana, ruleset="kingdom-cards", seats=3)

    async def scenario() -> tuple[dict, bool]:
        ws = turns_of(ana)
        assert (await ws.connect())[0]
        opened = await ws.receive_json_from(timeout=5)
        await sync_to_async(services.quick_match_join)(user=bob, ruleset="kingdoms", seats=3)
        await sync_to_async(services.table_create)(
            user=bob, ruleset="kingdoms", seats=2, options={}
        )
        nothing = await ws.receive_nothing(timeout=0.5)
        await ws.disconnect()
        return opened, nothing

    opened, nothing = async_to_sync(scenario)()
    assert opened == {"type": "turns", "turns": {}}
    assert nothing, "no table, count or match news on a page's socket"
    assert services.quick_match_state(user=ana)["status"] == "waiting"


def test_an_anonymous_pages_socket_is_closed_as_signed_out():
    async def scenario() -> dict:
        ws = WebsocketCommunicator(app, "/ws/turns/")
        assert (await ws.connect())[0]
        closed = await ws.receive_output(timeout=5)
        await ws.disconnect()
        return closed

    assert async_to_sync(scenario)() == {"type": "websocket.close", "code": 4401}


def test_a_game_the_player_left_is_no_longer_their_turn(make_user):
    """Three seats: the player who resigns is no viewer of the next head, which says the
    game goes on without them; their count must still drop that game."""
    ana, bob, cy = make_user("ana"), make_user("bob"), make_user("cy")
    game = humans_game([ana, bob, cy], ruleset="kingdom-cards")

    async def scenario() -> tuple[dict, dict]:
        ws = turns_of(ana)
        assert (await ws.connect())[0]
        opened = await ws.receive_json_from(timeout=5)
        await sync_to_async(services.game_resign)(game_id=game.id, user=ana)
        left = await ws.receive_json_from(timeout=5)
        await ws.disconnect()
        return opened, left

    opened, left = async_to_sync(scenario)()
    assert opened["turns"] == {str(game.id): True}  # every seat may challenge at first
    assert left == {"type": "turn", "game": str(game.id), "yours": False}
    assert selectors.get_game(game.id).status == "active"
