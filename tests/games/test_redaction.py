"""No payload to seat A carries seat B's secrets, the server-only facts, or the seed.

Whole all-bot games are played through the service; then, event by event, every seat's
view and redacted events are checked against every secret not yet public at that point
(per deal: each Kingdoms epoch deals its secrets afresh). Games played by a person through
the REST API check everything that person receives, endpoint by endpoint.
"""

from __future__ import annotations

import json
import uuid
from types import SimpleNamespace
from typing import Any
from unittest import mock

import pytest

from games import selectors, services
from games import table as tables
from games.models import Game, GameEvent
from games.rules import all_rulesets, get_ruleset
from games.storage import to_event
from tests.conftest import needs_postgres
from tests.games.helpers import (
    game_with_bots,
    pin_seed,
    secrets_by_seq,
    seed_revealed_at,
    string_values,
)

pytestmark = pytest.mark.django_db(transaction=True)
RULESETS = [r.key for r in all_rulesets()]
# A Kingdom Cards deal in which nobody completes a kingdom at once (so there is a game to
# play) and seat A's first battles exchange cards.
KINGDOM_CARDS_SEED = "redaction-kingdom-cards-0"
# The easy bots draw from an RNG seeded by the game's id, so the id is pinned too: with a
# fresh random id their moves, and whether cards change hands in 25 commands, vary by run.
KINGDOM_CARDS_GAME_ID = uuid.UUID("6b1f0c2e-5d4a-4c3b-9e8f-7a6b5c4d3e2f")

# (where it came from, the seq it shows, the JSON as received)
Received = tuple[str, int, Any]


def play_bot_game(user, ruleset: str, players: int) -> Game:
    game = game_with_bots(user, ruleset=ruleset, bots=players, join=False, level="easy")
    services.game_start(game_id=game.id, user=user)
    game.refresh_from_db()
    return game


def rows_of(game: Game) -> list[GameEvent]:
    return list(GameEvent.objects.filter(game=game).order_by("seq"))


@pytest.mark.parametrize("ruleset", RULESETS)
def test_no_seat_ever_sees_another_seats_secrets(make_user, ruleset):
    rules = get_ruleset(ruleset)
    players = max(rules.min_players, 3) if rules.max_players >= 3 else rules.min_players
    game = play_bot_game(make_user(), ruleset, players)
    assert game.status == Game.Status.FINISHED
    rows = rows_of(game)
    viewers = [None, *range(players)]
    secrets = {seat: secrets_by_seq(ruleset, rows, seat) for seat in viewers}
    revealed = seed_revealed_at(rows, game.seed)
    assert rows[revealed - 1].type == tables.RESULT_DECLARED
    # Every seat has something to hide from the others at some point (else this is vacuous).
    assert all(any(secrets[seat].values()) for seat in viewers)
    table = None
    for row in rows:
        table = tables.apply(rules, table, to_event(row))
        if table.rules is None:
            continue
        for seat in viewers:
            payload = [tables.view(rules, table, seat), selectors.redact(row, seat)]
            assert row.seq >= revealed or game.seed not in json.dumps(payload)
            # Values only: a key such as the option name "wizard" is no secret.
            leaked = secrets[seat][row.seq] & string_values(payload)
            assert not leaked, f"seat {seat} sees {leaked} at event {row.seq} ({row.type})"


def test_a_tile_public_last_epoch_is_secret_again_once_dealt_as_a_starting_tile():
    # The check above must not let epoch 1's public tiles excuse a leak in epoch 2.
    def row(seq: int, kind: str, public: dict, private: dict | None = None) -> Any:
        return SimpleNamespace(seq=seq, type=kind, public=public, private=private or {})

    rows = [
        row(
            1,
            "epoch_started",
            {"epoch": 1},
            {"0": {"starting_tile": "-2"}, "-1": {"supply": ["+3a", "dragon"]}},
        ),
        row(2, "tile_drawn", {"seat": 0, "tile": "+3a"}),
        row(
            3,
            "epoch_started",
            {"epoch": 2},
            {
                "0": {"starting_tile": "dragon"},
                "1": {"starting_tile": "+3a"},
                "-1": {"supply": ["-2"]},
            },
        ),
    ]
    for_seat_0 = secrets_by_seq("kingdoms", rows, 0)
    assert for_seat_0[1] == {"+3a", "dragon"}
    assert for_seat_0[2] == {"dragon"}
    assert for_seat_0[3] == {"+3a", "-2"}
    assert secrets_by_seq("kingdoms", rows, None)[3] == {"+3a", "-2", "dragon"}


# ---- through the REST API ---------------------------------------------------------------
def play_seat_through_rest(client, game_id: str, max_commands: int | None = None) -> list[Received]:
    """Play the client's seat (its first legal command each time; bots move inline) and
    keep every payload it receives: the table, the new events, the view after each new
    event, the legal commands and each command's answer."""
    base = f"/api/tables/{game_id}"
    received: list[Received] = []
    after = commands = 0
    while True:
        detail = client.get(f"{base}/").json()
        received.append(("table", detail["view_seq"], detail))
        events = client.get(f"{base}/events/?after={after}&limit=1000").json()["events"]
        received += [("events", e["seq"], e) for e in events]
        for seq in range(after + 1, after + len(events) + 1):
            view = client.get(f"{base}/view/?at={seq}").json()
            assert view["seq"] == seq
            received.append(("view", seq, view))
        after += len(events)
        if detail["status"] != "active" or commands == max_commands:
            return received
        legal = client.get(f"{base}/legal/").json()
        received.append(("legal", legal["seq"], legal))
        assert legal["commands"], "bots move inline, so the game waits for this seat"
        response = client.post(
            f"{base}/commands/",
            {
                "command": legal["commands"][0],
                "command_id": str(uuid.uuid4()),
                "expected_seq": legal["seq"],
            },
            format="json",
        )
        assert response.status_code == 201, response.json()
        body = response.json()
        received += [("command", e["seq"], e) for e in body["events"]]
        received.append(("command", body["head_seq"], {**body, "events": []}))
        commands += 1


def assert_nothing_secret_reached(
    received: list[Received], secrets: dict[int, frozenset[str]], seed: str, seed_from: int
) -> None:
    """No payload shows a value secret at its seq, nor the seed before event ``seed_from``."""
    for where, seq, payload in received:
        leaked = string_values(payload) & secrets[seq]
        assert not leaked, f"{where} at seq {seq} shows {leaked}"
    before_reveal = [(w, s, p) for w, s, p in received if s < seed_from]
    assert before_reveal
    for where, seq, payload in before_reveal:
        assert seed not in json.dumps(payload), f"{where} at seq {seq} shows the seed"


def rest_table(
    client,
    ruleset: str,
    bots: int,
    seed: str | None = None,
    game_id: uuid.UUID | None = None,
    options: dict | None = None,
) -> str:
    body = {"ruleset": ruleset, "seats": bots + 1, "options": options or {}}
    with mock.patch.object(
        Game._meta.get_field("id"), "_get_default", lambda: game_id or uuid.uuid4()
    ):
        response = client.post("/api/tables/", body, format="json")
    assert response.status_code == 201, response.json()
    game_id = response.json()["id"]
    for _ in range(bots):
        client.post(f"/api/tables/{game_id}/bots/", {"level": "easy"}, format="json")
    if seed is not None:
        pin_seed(Game.objects.get(pk=game_id), seed)
    assert client.post(f"/api/tables/{game_id}/start/").status_code == 200
    return game_id


def test_kingdoms_over_rest_never_shows_other_seats_starting_tiles_supply_or_seed(api):
    client = api("ana")
    game_id = rest_table(client, "kingdoms", bots=2)
    received = play_seat_through_rest(client, game_id)
    game = Game.objects.get(pk=game_id)
    assert game.status == Game.Status.FINISHED
    rows = rows_of(game)
    seat = game.seats.get(user=client.user).number
    secrets = secrets_by_seq("kingdoms", rows, seat)
    epochs = [r for r in rows if r.type == "epoch_started"]
    assert len(epochs) == 3
    for epoch in epochs:
        # Each epoch's other starting tiles and whole supply are secret when dealt.
        others = {
            d["starting_tile"] for k, d in epoch.private.items() if k not in {str(seat), "-1"}
        }
        assert len(others) == 2
        assert others | set(epoch.private["-1"]["supply"]) <= secrets[epoch.seq]
    revealed = seed_revealed_at(rows, game.seed)
    assert rows[revealed - 1].type == tables.RESULT_DECLARED
    assert_nothing_secret_reached(received, secrets, game.seed, revealed)
    # The seat did receive its own starting tile of every epoch.
    own = [e.private[str(seat)]["starting_tile"] for e in epochs]
    shown = [
        payload["state"]["starting_tiles"][seat]["tile"]
        for where, seq, payload in received
        if where == "view" and seq in {e.seq for e in epochs}
    ]
    assert shown == own
    assert {where for where, _, _ in received} == {"table", "events", "view", "legal", "command"}


def test_kingdom_cards_over_rest_never_shows_another_seats_cards_or_the_seed(api):
    client = api("ana")
    game_id = rest_table(
        client, "kingdom-cards", bots=2, seed=KINGDOM_CARDS_SEED, game_id=KINGDOM_CARDS_GAME_ID
    )
    assert game_id == str(KINGDOM_CARDS_GAME_ID)
    received = play_seat_through_rest(client, game_id, max_commands=25)
    game = Game.objects.get(pk=game_id)
    rows = rows_of(game)
    seat = game.seats.get(user=client.user).number
    secrets = secrets_by_seq("kingdom-cards", rows, seat)
    dealt = rows[1]
    assert dealt.type == "cards_dealt"
    for other in {"0", "1", "2"} - {str(seat)}:
        assert set(dealt.private[other]["hand"]) <= secrets[dealt.seq]
    # Cards changed hands in battles meanwhile, so later secrets differ from the deal's.
    assert any(r.type == "bids_exchanged" for r in rows), sorted({r.type for r in rows})
    assert seed_revealed_at(rows, game.seed) is None
    assert_nothing_secret_reached(received, secrets, game.seed, rows[-1].seq + 1)
    views = [p["state"] for where, s, p in received if where == "view" and s == dealt.seq]
    assert views[0]["hand"] == dealt.private[str(seat)]["hand"]


@pytest.mark.parametrize("ruleset", RULESETS)
def test_server_only_facts_never_leave_the_server(make_user, ruleset):
    rules = get_ruleset(ruleset)
    game = play_bot_game(make_user(), ruleset, rules.min_players)
    for seat in [None, *range(rules.min_players)]:
        events = selectors.events_after(game, seat, 0, limit=100000)
        for event, row in zip(events, rows_of(game), strict=True):
            server_only = row.private.get("-1")
            if server_only:
                assert json.dumps(server_only)[1:-1] not in json.dumps(event["data"])


# ---- through the bot API's game stream ---------------------------------------------------
def play_seat_through_the_stream(
    client, game_id: str, watcher_token: str, max_commands: int | None = None
) -> list[Received]:
    """Play the client's seat through ``/api/bot/game/<id>/move/``, reading its game stream
    (and a spectator's, by ``watcher_token``) line by line: every line kept, each event at
    its own seq and the rest of the line at the head it brings the reader to."""
    from asgiref.sync import async_to_sync, sync_to_async
    from rest_framework.authtoken.models import Token

    from tests.games.ndjson import NdjsonStream

    own = Token.objects.get_or_create(user=client.user)[0].key
    received: list[Received] = []

    def keep(where: str, line: dict) -> None:
        for event in line.get("events", []):
            received.append((f"{where} {line['type']} event", event["seq"], event))
        rest = {k: v for k, v in line.items() if k != "events"}
        received.append((f"{where} {line['type']}", line["seq"], rest))

    def move(command: dict, seq: int) -> bool:
        body = {"command": command, "command_id": str(uuid.uuid4()), "expected_seq": seq}
        answer = client.post(f"/api/bot/game/{game_id}/move/", body, format="json")
        if answer.status_code == 409:  # a bot moved first (Kingdom Cards' bids): read on
            assert answer.json()["code"] == "stale_seq"
            return False
        assert answer.status_code == 201, answer.json()
        return True

    async def scenario() -> None:
        seat = NdjsonStream(f"/api/bot/game/stream/{game_id}/", own, query="after=0")
        watcher = NdjsonStream(f"/api/bot/game/stream/{game_id}/", watcher_token, query="after=0")
        assert await seat.open() == 200 and await watcher.open() == 200
        # Both streams' first reads done before a move (SQLite's in-memory test database
        # refuses a read beside a write).
        keep("spectator", await watcher.next_object())
        line = await seat.next_object()
        keep("seat", line)
        state = line["state"]
        commands = 0
        while state["status"] == "active" and commands != max_commands:
            if state["legal"] and await sync_to_async(move)(state["legal"][0], state["seq"]):
                commands += 1
            line = await seat.next_object()
            keep("seat", line)
            if line["type"] == "gameState":
                state = line
        if state["status"] == "active":
            await seat.close()
            head = state["seq"]
            while True:
                line = await watcher.next_object()
                keep("spectator", line)
                if line["seq"] >= head:
                    break
            await watcher.close()
        else:
            for line in await watcher.rest():
                keep("spectator", line)

    async_to_sync(scenario)()
    return received


# The streams read in their own threads while the bots move inline in the test's: on
# SQLite's in-memory test database a reader's table lock refuses a writer at once (no busy
# timeout applies there), so these run where the service runs its streams, on PostgreSQL.
on_postgres_only = needs_postgres


@on_postgres_only
def test_kingdoms_through_the_game_stream_never_shows_other_seats_secrets_or_the_seed(api):
    client, watcher = api("ana"), api("watcher")
    from rest_framework.authtoken.models import Token

    game_id = rest_table(client, "kingdoms", bots=2)
    received = play_seat_through_the_stream(
        client, game_id, Token.objects.create(user=watcher.user).key
    )
    game = Game.objects.get(pk=game_id)
    assert game.status == Game.Status.FINISHED
    rows = rows_of(game)
    seat = game.seats.get(user=client.user).number
    revealed = seed_revealed_at(rows, game.seed)
    seat_lines = [r for r in received if r[0].startswith("seat")]
    spectator_lines = [r for r in received if r[0].startswith("spectator")]
    assert_nothing_secret_reached(
        seat_lines, secrets_by_seq("kingdoms", rows, seat), game.seed, revealed
    )
    assert_nothing_secret_reached(
        spectator_lines, secrets_by_seq("kingdoms", rows, None), game.seed, revealed
    )
    # Every event reached both streams, once.
    for lines in (seat_lines, spectator_lines):
        seqs = [seq for where, seq, _ in lines if where.endswith("event")]
        assert seqs == list(range(1, game.head_seq + 1))


@on_postgres_only
def test_kingdom_cards_through_the_game_stream_never_shows_another_seats_cards(api):
    from rest_framework.authtoken.models import Token

    client, watcher = api("ana"), api("watcher")
    game_id = rest_table(
        client, "kingdom-cards", bots=2, seed=KINGDOM_CARDS_SEED, game_id=KINGDOM_CARDS_GAME_ID
    )
    received = play_seat_through_the_stream(
        client, game_id, Token.objects.create(user=watcher.user).key, max_commands=25
    )
    game = Game.objects.get(pk=game_id)
    rows = rows_of(game)
    seat = game.seats.get(user=client.user).number
    assert any(r.type == "bids_exchanged" for r in rows)
    seat_lines = [r for r in received if r[0].startswith("seat")]
    spectator_lines = [r for r in received if r[0].startswith("spectator")]
    last = rows[-1].seq + 1
    assert_nothing_secret_reached(
        seat_lines, secrets_by_seq("kingdom-cards", rows, seat), game.seed, last
    )
    assert_nothing_secret_reached(
        spectator_lines, secrets_by_seq("kingdom-cards", rows, None), game.seed, last
    )
    # The seat's own hand did reach it.
    dealt = rows[1]
    full = next(p for where, _s, p in seat_lines if where == "seat gameFull")
    assert full["state"]["view"]["hand"] is not None
    assert dealt.private[str(seat)]["hand"]


@on_postgres_only
def test_kingdom_builder_through_the_game_stream_never_shows_another_seats_hand(api):
    from rest_framework.authtoken.models import Token

    client, watcher = api("ana"), api("watcher")
    # Hands of three secret terrain cards: every seat holds secrets all game long.
    game_id = rest_table(client, "kingdom-builder", bots=2, options={"terrain_draw": "hand"})
    received = play_seat_through_the_stream(
        client, game_id, Token.objects.create(user=watcher.user).key
    )
    game = Game.objects.get(pk=game_id)
    assert game.status == Game.Status.FINISHED
    rows = rows_of(game)
    seat = game.seats.get(user=client.user).number
    revealed = seed_revealed_at(rows, game.seed)
    seat_lines = [r for r in received if r[0].startswith("seat")]
    spectator_lines = [r for r in received if r[0].startswith("spectator")]
    for viewer, lines in ((seat, seat_lines), (None, spectator_lines)):
        secrets = secrets_by_seq("kingdom-builder", rows, viewer)
        assert any(secrets.values()), "the deal hid something from this viewer"
        assert_nothing_secret_reached(lines, secrets, game.seed, revealed)
        # Each event exactly as the redaction rule makes it for this viewer (public and
        # the viewer's own part, no other seat's), once, in order.
        events = [(s, p) for where, s, p in lines if where.endswith("event")]
        assert [s for s, _ in events] == list(range(1, game.head_seq + 1))
        for (_seq, event), row in zip(events, rows, strict=True):
            assert event["data"] == selectors.redact(row, viewer)["data"], row.type
    # Before the result a view shows its seat's own hand and nobody else's.
    seat_views = [
        (p["state"]["view"] if where.endswith("gameFull") else p["view"])
        for where, s, p in seat_lines
        if where in {"seat gameFull", "seat gameState"} and s < revealed
    ]
    spectator_views = [
        (p["state"]["view"] if where.endswith("gameFull") else p["view"])
        for where, s, p in spectator_lines
        if where in {"spectator gameFull", "spectator gameState"} and s < revealed
    ]
    assert seat_views and spectator_views
    assert all(len(v["hand"]) == v["players"][seat]["hand_size"] for v in seat_views)
    assert all(v["hand"] is None for v in spectator_views)


# ---- through the bot API's account stream ------------------------------------------------
@pytest.mark.parametrize(
    ("ruleset", "options"),
    [
        ("kingdoms", {}),
        ("kingdom-builder", {"terrain_draw": "hand"}),
        ("kingdom-cards", {"allow_two_players": True}),
    ],
)
def test_the_account_streams_game_lines_carry_no_seats_secrets_or_the_seed(
    make_user, ruleset, options
):
    """``gameStart`` when the table starts, and again on opening the stream while the game
    is in progress: the game's players and links, nothing of its deal."""
    from asgiref.sync import async_to_sync, sync_to_async
    from rest_framework.authtoken.models import Token

    from tests.games.ndjson import NdjsonStream

    ana = make_user("ana")
    game = game_with_bots(ana, ruleset=ruleset, bots=1, options=options)
    key = Token.objects.create(user=ana).key

    async def game_lines() -> list[dict]:
        live = NdjsonStream("/api/stream/event/", key)
        assert await live.open() == 200
        await sync_to_async(services.game_start)(game_id=game.id, user=ana)
        started = await live.next_object()
        await live.close()
        reopened = NdjsonStream("/api/stream/event/", key)
        assert await reopened.open() == 200
        opening = await reopened.next_object()
        await reopened.close()
        return [started, opening]

    lines = async_to_sync(game_lines)()
    assert [(line["type"], line["game"]["id"]) for line in lines] == [
        ("gameStart", str(game.id))
    ] * 2
    game.refresh_from_db()
    assert game.status == Game.Status.ACTIVE
    rows = rows_of(game)
    seat = game.seats.get(user=ana).number
    # Whatever was hidden from ana at any point so far (the lines say nothing of the deal).
    secrets = set().union(*secrets_by_seq(ruleset, rows, seat).values())
    assert secrets, "the deal hides something from ana"
    for line in lines:
        assert not string_values(line) & secrets
        assert game.seed not in json.dumps(line)
