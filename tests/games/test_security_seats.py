"""A player who left the table (resigned, expelled or kicked) sees none of the secrets of
the seat a bot now plays, on any read path: REST events,
view, view?at=, legal and detail, the game stream, and the audit trail."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import timedelta

import pytest
from asgiref.sync import async_to_sync, sync_to_async
from channels.routing import URLRouter
from channels.testing import WebsocketCommunicator
from django.utils import timezone
from rest_framework.test import APIClient

from games import selectors, services
from games.models import Game, GameEvent
from games.sockets.routing import websocket_urlpatterns
from tests.games.helpers import humans_game, make_moderator, play_out, to_act

pytestmark = pytest.mark.django_db(transaction=True)
app = URLRouter(websocket_urlpatterns)
BLITZ = {"kind": "realtime", "minutes": 5, "increment_seconds": 10}
# Kingdom Builder's secret is the terrain card in hand; Kingdom Cards' the hand of cards.
RULESETS = ["kingdom-builder", "kingdom-cards"]
DEPARTURES = {"resign": "seat_resigned", "expel": "seat_expelled", "kick": "seat_kicked"}
_real_now = timezone.now


@dataclass
class Departed:
    game: Game
    seat: int
    user: object
    others: list
    departure_seq: int  # the seq of the seat_resigned / seat_expelled / seat_kicked event


@pytest.fixture
def now(monkeypatch) -> list:
    """The server's time, moved by hand (``now[0] += ...``)."""
    moment = [_real_now()]
    monkeypatch.setattr(timezone, "now", lambda: moment[0])
    return moment


@pytest.fixture
def three(make_user) -> list:
    return [make_user("ana"), make_user("bob"), make_user("cy")]


def the_seat_to_act_leaves(ruleset: str, how: str, users: list, now: list, make_user):
    """A three-player game where the seat to act leaves ``how``; returns the game and
    a callable that makes it leave (so a socket can be opened before)."""
    game = humans_game(users, ruleset=ruleset, time_control=BLITZ if how == "expel" else None)
    for _ in range(50):  # one seat to act, so only its clock runs out (Kingdom Cards bids)
        if len(to_act(game)) == 1:
            break
        play_out(game, users, moves=1)
    (seat,) = to_act(game)
    user = game.seats.get(number=seat).user
    others = [u for u in users if u != user]

    def leave() -> Departed:
        if how == "resign":
            services.game_resign(game_id=game.id, user=user)
        elif how == "kick":
            mod = make_moderator(make_user("mod"))
            services.player_kick(game_id=game.id, moderator=mod, player=user, reason="abuse")
        else:
            now[0] += timedelta(minutes=6)
            services.clock_sweep()
            services.game_expel(game_id=game.id, user=others[0], seat=seat)
        row = GameEvent.objects.get(game=game, type=DEPARTURES[how])
        assert row.public["seat"] == seat
        # The bot plays the seat on: its new secrets (a card drawn, a hand) follow.
        play_out(game, others, moves=4)
        game.refresh_from_db()
        return Departed(game, seat, user, others, row.seq)

    return game, leave


def departed(ruleset: str, how: str, users: list, now: list, make_user) -> Departed:
    return the_seat_to_act_leaves(ruleset, how, users, now, make_user)[1]()


def client_of(user) -> APIClient:
    client = APIClient()
    client.force_authenticate(user)
    return client


def assert_the_seat_has_secrets_either_side(d: Departed) -> None:
    """Guards the tests against passing vacuously: the seat held private data before the
    departure (the hand dealt), its view still shows more than a spectator's, and in
    Kingdom Builder the bot has drawn a new terrain card since."""
    rows = GameEvent.objects.filter(game=d.game)
    private = [r.seq for r in rows if r.private.get(str(d.seat))]
    assert any(seq < d.departure_seq for seq in private)
    if d.game.ruleset == "kingdom-builder":
        assert any(seq > d.departure_seq for seq in private)
    view = selectors.game_view(d.game, d.seat)["state"]
    assert view != selectors.game_view(d.game, None)["state"]


def spectator_events(game: Game) -> list[dict]:
    return selectors.events_after(game, None, 0, limit=1000)


@pytest.mark.parametrize("how", DEPARTURES)
@pytest.mark.parametrize("ruleset", RULESETS)
def test_a_departed_player_reads_the_game_over_rest_as_a_spectator(
    ruleset, how, three, now, make_user
):
    d = departed(ruleset, how, three, now, make_user)
    assert_the_seat_has_secrets_either_side(d)
    api = client_of(d.user)
    base = f"/api/tables/{d.game.id}"

    events = api.get(f"{base}/events/?after=0&limit=1000").json()
    assert events["events"] == spectator_events(d.game)

    assert api.get(f"{base}/view/").json() == selectors.game_view(d.game, None)
    # Replays too, from before the departure: those secrets (a hand) are still the seat's.
    for at in (d.departure_seq - 1, d.departure_seq, d.game.head_seq):
        seen = api.get(f"{base}/view/?at={at}").json()
        assert seen == selectors.view_at(d.game, None, at)
        assert seen != selectors.view_at(d.game, d.seat, at)

    detail = api.get(f"{base}/").json()
    assert detail["your_seat"] is None
    assert detail["view"] == selectors.game_view(d.game, None)["state"]
    legal = api.get(f"{base}/legal/").json()
    assert (legal["seat"], legal["commands"]) == (None, [])


@pytest.mark.parametrize("how", DEPARTURES)
@pytest.mark.parametrize("ruleset", RULESETS)
def test_an_open_game_stream_stops_sending_the_seats_secrets_at_the_departure(
    ruleset, how, three, now, make_user
):
    game, leave = the_seat_to_act_leaves(ruleset, how, three, now, make_user)
    (seat,) = to_act(game)
    user = game.seats.get(number=seat).user

    async def scenario():
        ws = WebsocketCommunicator(app, f"/ws/games/{game.id}/?after=0")
        ws.scope["user"] = user
        connected, _ = await ws.connect()
        assert connected
        before = await ws.receive_json_from(timeout=5)
        d = await sync_to_async(leave)()
        after = []
        while not after or after[-1]["head"] < d.game.head_seq:
            after.append(await ws.receive_json_from(timeout=5))
        await ws.disconnect()
        return before, d, after

    before, d, after = async_to_sync(scenario)()
    assert before["your_seat"] == seat
    assert_the_seat_has_secrets_either_side(d)
    # News read after the departure (a timeout before an expulsion may come first).
    since = [m for m in after if m["head"] >= d.departure_seq]
    sent = [e for message in since for e in message["events"]]
    assert d.departure_seq in [e["seq"] for e in sent]
    rows = {r.seq: r for r in GameEvent.objects.filter(game=d.game)}
    for event in sent:
        assert event["data"] == selectors.redact(rows[event["seq"]], None)["data"]
    for message in since:
        assert message["your_seat"] is None and message["legal"] == []
        assert message["view"] == selectors.view_at(d.game, None, message["head"])["state"]


@pytest.mark.parametrize("how", DEPARTURES)
@pytest.mark.parametrize("ruleset", RULESETS)
def test_the_audit_trail_shows_a_departed_player_no_secrets_of_their_seat(
    ruleset, how, three, now, make_user
):
    d = departed(ruleset, how, three, now, make_user)
    assert_the_seat_has_secrets_either_side(d)
    game = play_out(d.game, d.others)
    assert game.status == Game.Status.FINISHED
    trail = client_of(d.user).get(f"/api/tables/{game.id}/audit/trail/")
    assert trail.status_code == 200
    timeline = trail.json()["timeline"]
    assert timeline == selectors.events_after(game, None, 0, limit=10_000)
    rows = {r.seq: r for r in GameEvent.objects.filter(game=game)}
    for event in timeline:
        row = rows[event["seq"]]
        secret = set(row.private.get(str(d.seat), {})) - set(row.public)
        assert not secret & set(event["data"]), f"seat {d.seat}'s {secret} at {row.seq}"
