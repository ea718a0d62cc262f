"""The REST API: every endpoint, token auth, and JSON errors with 4xx statuses."""

from __future__ import annotations

import uuid

import pytest
from rest_framework.test import APIClient

from games.models import Game, GameEvent
from tests.games.helpers import make_moderator

pytestmark = pytest.mark.django_db(transaction=True)


def create_table(client, seats=2, bots=1, options=None) -> dict:
    response = client.post(
        "/api/tables/",
        {"ruleset": "kingdoms", "seats": seats, "options": options or {}},
        format="json",
    )
    assert response.status_code == 201, response.json()
    table = response.json()
    for _ in range(bots):
        assert (
            client.post(
                f"/api/tables/{table['id']}/bots/", {"level": "easy"}, format="json"
            ).status_code
            == 201
        )
    return table


def test_rulesets_declare_their_options():
    response = APIClient().get("/api/rulesets/")
    assert response.status_code == 200
    kingdoms = next(r for r in response.json() if r["key"] == "kingdoms")
    assert {"name", "default", "description", "choices", "type"} <= set(kingdoms["options"][0])
    assert kingdoms["min_players"] == 2 and kingdoms["max_players"] == 4


def test_rulesets_say_in_player_words_when_each_option_applies():
    rulesets = {r["key"]: r for r in APIClient().get("/api/rulesets/").json()}
    options = {o["name"]: o for o in rulesets["kingdom-builder"]["options"]}
    assert options["draft_size"]["applies_when"] == {"terrain_draw": "draft"}
    assert options["hand_size"]["applies_when"] == {"terrain_draw": "hand"}
    assert options["sections"]["applies_when"] == {"board": "chosen"}
    assert options["crossroads_pieces_score"]["applies_when"] == {"crossroads": True}
    assert options["terrain_draw"]["applies_when"] is None
    assert len(options["board"]["labels"]) == len(options["board"]["choices"])
    cards = options["cards"]["pick"]
    assert cards["count"] == 3 and cards["default_label"].startswith("3 at random")
    assert {"value": "fishermen", "label": "Fishermen", "needs": None} in cards["items"]
    assert {i["needs"] for i in cards["items"]} == {None, "nomads"}
    sections = options["sections"]["pick"]
    assert sections["count"] == 4 and options["sections"]["control"] == "board_sections"
    assert {
        "value": "city_hall_and_outpost",
        "label": "City Hall and Outpost",
        "needs": "crossroads",
    } in sections["items"]
    wizard = rulesets["kingdoms"]["options"][0]
    assert wizard["label"] == "The Wizard" and wizard["pick"] is None


def test_kingdom_builder_sections_come_as_terrain_grids():
    response = APIClient().get("/api/rulesets/kingdom-builder/sections/")
    assert response.status_code == 200
    sections = {s["name"]: s for s in response.json()}
    assert len(sections) == 16
    tavern = sections["tavern"]
    assert tavern["label"] == "Tavern" and tavern["expansion"] == "base"
    assert len(tavern["rows"]) == 10 and all(len(row) == 10 for row in tavern["rows"])
    assert set("".join(tavern["rows"])) <= set("GCDFTWMSLN")


def test_signup_gives_a_token_that_authenticates():
    client = APIClient()
    response = client.post(
        "/api/auth/signup/", {"username": "tok", "password": "long-pass-1"}, format="json"
    )
    assert response.status_code == 201
    client.credentials(HTTP_AUTHORIZATION=f"Token {response.json()['token']}")
    assert create_table(client, bots=0)["host"] == "tok"
    again = APIClient().post("/api/auth/token/", {"username": "tok", "password": "long-pass-1"})
    assert again.json()["token"] == response.json()["token"]


def test_full_game_through_the_api(api):
    client = api("ana")
    table = create_table(client, bots=1)
    game_id = table["id"]
    assert client.post(f"/api/tables/{game_id}/start/").status_code == 200
    for _ in range(400):
        detail = client.get(f"/api/tables/{game_id}/").json()
        if detail["status"] != "active":
            break
        legal = client.get(f"/api/tables/{game_id}/legal/").json()
        assert legal["commands"], "the bot moves inline, so it is our turn"
        response = client.post(
            f"/api/tables/{game_id}/commands/",
            {
                "command": legal["commands"][0],
                "command_id": str(uuid.uuid4()),
                "expected_seq": legal["seq"],
            },
            format="json",
        )
        assert response.status_code == 201, response.json()
    detail = client.get(f"/api/tables/{game_id}/").json()
    assert detail["status"] == "finished"
    assert detail["seed"] and detail["outcome"]["ranking"]
    events = client.get(f"/api/tables/{game_id}/events/?after=0&limit=1000").json()
    assert [e["seq"] for e in events["events"]] == list(range(1, events["head_seq"] + 1))
    assert all(e["text"] for e in events["events"])
    audit = client.get(f"/api/tables/{game_id}/audit/").json()
    assert audit["chain_intact"] and audit["seed"] == detail["seed"]


def test_filters_list_tables_by_game_and_status(api):
    client = api("ana")
    create_table(client, bots=0)
    assert len(client.get("/api/tables/?ruleset=kingdoms&status=open").json()["results"]) == 1
    assert client.get("/api/tables/?status=finished").json()["results"] == []
    assert client.get("/api/tables/?ruleset=kingdom-cards").json()["results"] == []


@pytest.mark.parametrize(
    "body",
    [
        {},
        {"command": "pass"},
        {"command": {"type": "place_castle", "rank": "x", "space": [0, 0]}},
        {"command": {"type": "place_castle", "rank": 1, "space": [99, 0]}},
        {"command": {"type": "nope"}},
        {"command": {"type": "pass"}, "command_id": "not-a-uuid"},
        {"command": {"type": "pass"}, "expected_seq": -3},
    ],
)
def test_bad_commands_get_json_4xx_and_leave_the_log_alone(api, body):
    client = api("ana")
    game_id = create_table(client, bots=1)["id"]
    client.post(f"/api/tables/{game_id}/start/")
    head = Game.objects.get(pk=game_id).head_seq
    response = client.post(f"/api/tables/{game_id}/commands/", body, format="json")
    assert 400 <= response.status_code < 500
    assert {"code", "message"} <= set(response.json())
    assert GameEvent.objects.filter(game_id=game_id).count() == head


def test_stale_expected_seq_answers_409_with_head(api):
    client = api("ana")
    game_id = create_table(client, bots=1)["id"]
    client.post(f"/api/tables/{game_id}/start/")
    legal = client.get(f"/api/tables/{game_id}/legal/").json()
    response = client.post(
        f"/api/tables/{game_id}/commands/",
        {"command": legal["commands"][0], "expected_seq": legal["seq"] - 1},
        format="json",
    )
    assert response.status_code == 409
    assert response.json()["code"] == "stale_seq"
    assert response.json()["head"] == legal["seq"]


def test_a_retried_command_answers_200_with_the_recorded_events_and_logs_once(api):
    client = api("ana")
    game_id = create_table(client, bots=1)["id"]
    client.post(f"/api/tables/{game_id}/start/")
    legal = client.get(f"/api/tables/{game_id}/legal/").json()
    body = {
        "command": legal["commands"][0],
        "command_id": str(uuid.uuid4()),
        "expected_seq": legal["seq"],
    }
    first = client.post(f"/api/tables/{game_id}/commands/", body, format="json")
    assert first.status_code == 201, first.json()
    assert first.json()["replayed"] is False and first.json()["events"]
    logged = GameEvent.objects.filter(game_id=game_id).count()
    # The bot has moved meanwhile, so expected_seq is stale: the retry is still answered
    # from the log (the command_id is looked up first), not refused.
    assert logged > legal["seq"] + len(first.json()["events"])
    again = client.post(f"/api/tables/{game_id}/commands/", body, format="json")
    assert again.status_code == 200, again.json()
    assert again.json()["replayed"] is True
    assert again.json()["events"] == first.json()["events"]
    assert GameEvent.objects.filter(game_id=game_id, command_id=body["command_id"]).count() == 1
    assert GameEvent.objects.filter(game_id=game_id).count() == logged


def test_a_command_id_reused_for_another_command_is_a_409_json_error(api):
    client = api("ana")
    game_id = create_table(client, bots=1)["id"]
    client.post(f"/api/tables/{game_id}/start/")
    legal = client.get(f"/api/tables/{game_id}/legal/").json()
    command_id = str(uuid.uuid4())
    first = client.post(
        f"/api/tables/{game_id}/commands/",
        {"command": legal["commands"][0], "command_id": command_id},
        format="json",
    )
    assert first.status_code == 201, first.json()
    logged = GameEvent.objects.filter(game_id=game_id).count()
    now_legal = client.get(f"/api/tables/{game_id}/legal/").json()["commands"]
    other = next(c for c in now_legal if c != legal["commands"][0])
    response = client.post(
        f"/api/tables/{game_id}/commands/",
        {"command": other, "command_id": command_id},
        format="json",
    )
    assert response.status_code == 409
    assert response.json()["code"] == "command_id_reused"
    assert response.json()["message"]
    assert GameEvent.objects.filter(game_id=game_id).count() == logged


def test_unknown_table_and_bad_query_are_json_errors(api):
    client = api("ana")
    missing = client.get(f"/api/tables/{uuid.uuid4()}/")
    assert missing.status_code == 404 and missing.json()["code"] == "not_found"
    game_id = create_table(client, bots=0)["id"]
    bad = client.get(f"/api/tables/{game_id}/events/?after=abc")
    assert bad.status_code == 400 and bad.json()["code"] == "invalid"


def test_anonymous_cannot_write_but_can_watch(api):
    client = api("ana")
    game_id = create_table(client, bots=1)["id"]
    client.post(f"/api/tables/{game_id}/start/")
    anonymous = APIClient()
    assert anonymous.get(f"/api/tables/{game_id}/").status_code == 200
    response = anonymous.post(
        f"/api/tables/{game_id}/commands/", {"command": {"type": "pass"}}, format="json"
    )
    assert response.status_code in (401, 403)
    assert "code" in response.json()
    assert anonymous.get(f"/api/tables/{game_id}/legal/").json()["commands"] == []


def test_lobby_actions_join_leave_bots_resign_abort(api):
    host, guest, mod = api("host"), api("guest"), api("mod", staff=True)
    make_moderator(mod.user)  # staff alone may not moderate (tests/games/permissions/)
    table = create_table(host, seats=3, bots=1)
    game_id = table["id"]
    assert guest.post(f"/api/tables/{game_id}/join/").status_code == 200
    assert guest.post(f"/api/tables/{game_id}/leave/").status_code == 200
    bot = next(s for s in host.get(f"/api/tables/{game_id}/").json()["seats"] if s["bot"])
    assert host.delete(f"/api/tables/{game_id}/bots/{bot['id']}/").status_code == 200
    host.post(f"/api/tables/{game_id}/bots/", {"level": "medium"}, format="json")
    guest.post(f"/api/tables/{game_id}/join/")
    assert host.post(f"/api/tables/{game_id}/start/").status_code == 200
    assert guest.post(f"/api/tables/{game_id}/abort/").status_code == 403
    assert guest.post(f"/api/tables/{game_id}/resign/").status_code == 200
    response = mod.post(f"/api/tables/{game_id}/abort/", {"reason": "test"}, format="json")
    assert response.status_code in (200, 409)


def test_replay_view_at_an_event(api):
    client = api("ana")
    game_id = create_table(client, bots=1)["id"]
    client.post(f"/api/tables/{game_id}/start/")
    at_one = client.get(f"/api/tables/{game_id}/view/?at=1").json()
    assert at_one["seq"] == 1
    head = client.get(f"/api/tables/{game_id}/view/").json()
    assert head["seq"] == Game.objects.get(pk=game_id).head_seq


def test_openapi_schema_and_docs_page():
    client = APIClient()
    schema = client.get("/api/schema/")
    assert schema.status_code == 200
    assert b"/api/tables/{game_id}/commands/" in schema.content
    assert client.get("/api/docs/").status_code == 200


def test_the_openapi_schema_offers_every_bot_level_and_says_which_ones_think():
    schema = APIClient().get("/api/schema/?format=json").json()
    components = schema["components"]["schemas"]
    # drf-spectacular gives the choices a component of their own.
    (ref,) = [part["$ref"] for part in components["BotAdd"]["properties"]["level"]["allOf"]]
    level = components[ref.rsplit("/", 1)[1]]
    assert level["enum"] == ["easy", "medium", "hard", "expert"]
    think = components["TableCreate"]["properties"]["bot_think_seconds"]
    assert think["description"].startswith("seconds a hard or expert bot may think per move")


@pytest.mark.parametrize("level", ["easy", "medium", "hard", "expert"])
def test_a_host_adds_a_bot_of_each_level_named_by_its_level(api, level):
    client = api("ana")
    table = create_table(client, bots=0)
    response = client.post(f"/api/tables/{table['id']}/bots/", {"level": level}, format="json")
    assert response.status_code == 201, response.json()
    (bot,) = [s for s in response.json()["seats"] if s["bot"]]
    assert bot["bot"] == level and bot["name"] == f"Bot 2 ({level})" and bot["user"] is None


def test_a_bot_level_the_tables_do_not_offer_is_a_400(api):
    client = api("ana")
    table = create_table(client, bots=0)
    response = client.post(
        f"/api/tables/{table['id']}/bots/", {"level": "grandmaster"}, format="json"
    )
    assert response.status_code == 400
    assert {"code", "message"} <= set(response.json())
    assert [s["bot"] for s in client.get(f"/api/tables/{table['id']}/").json()["seats"]] == [None]


def test_an_expert_table_starts_with_its_bots_seated_and_named(api, settings):
    settings.BOT_RUNNER = "none"  # the bots' turns are tests/bots/test_turns.py's
    client = api("ana")
    response = client.post(
        "/api/tables/",
        {"ruleset": "kingdoms", "seats": 3, "join": False, "bot_think_seconds": 0.5},
        format="json",
    )
    assert response.status_code == 201, response.json()
    game_id = response.json()["id"]
    for level in ("expert", "expert", "hard"):
        assert (
            client.post(f"/api/tables/{game_id}/bots/", {"level": level}, format="json").status_code
            == 201
        )
    started = client.post(f"/api/tables/{game_id}/start/")
    assert started.status_code == 200, started.json()
    table = started.json()
    assert table["status"] == "active" and table["bot_think_seconds"] == 0.5
    assert sorted((s["name"], s["bot"]) for s in table["seats"]) == [
        ("Bot 1 (expert)", "expert"),
        ("Bot 2 (expert)", "expert"),
        ("Bot 3 (hard)", "hard"),
    ]
    assert sorted(s["seat"] for s in table["seats"]) == [0, 1, 2]
    players = GameEvent.objects.get(game_id=game_id, seq=1).public["players"]
    assert sorted((p["name"], p["bot"]) for p in players) == [
        ("Bot 1 (expert)", "expert"),
        ("Bot 2 (expert)", "expert"),
        ("Bot 3 (hard)", "hard"),
    ]


def test_a_table_sets_its_bots_thinking_time(api, settings):
    client = api("ana")
    default = client.post("/api/tables/", {"ruleset": "kingdoms", "seats": 2}, format="json")
    assert default.json()["bot_think_seconds"] == settings.BOT_THINK_SECONDS
    quick = client.post(
        "/api/tables/",
        {"ruleset": "kingdoms", "seats": 2, "bot_think_seconds": 0.25},
        format="json",
    )
    assert quick.status_code == 201
    assert quick.json()["bot_think_seconds"] == 0.25
    assert Game.objects.get(pk=quick.json()["id"]).bot_think_seconds == 0.25


@pytest.mark.parametrize("seconds", [0, 0.05, 11, "soon", [1]])
def test_a_thinking_time_out_of_range_is_refused(api, seconds):
    client = api("ana")
    before = Game.objects.count()
    response = client.post(
        "/api/tables/",
        {"ruleset": "kingdoms", "seats": 2, "bot_think_seconds": seconds},
        format="json",
    )
    assert response.status_code == 400
    assert {"code", "message"} <= set(response.json())
    assert Game.objects.count() == before


@pytest.mark.parametrize(
    ("ruleset", "options"),
    [("kingdoms", {}), ("kingdom-builder", {}), ("kingdom-cards", {"allow_two_players": True})],
)
def test_a_moves_answer_carries_its_events_as_the_event_stream_shows_them(api, ruleset, options):
    # The answer reuses what the write computed for the player's socket (pushed_news).
    ana, bob = api("ana"), api("bob")
    game_id = ana.post(
        "/api/tables/", {"ruleset": ruleset, "seats": 2, "options": options}, format="json"
    ).json()["id"]
    assert bob.post(f"/api/tables/{game_id}/join/").status_code == 200
    assert ana.post(f"/api/tables/{game_id}/start/").status_code == 200
    for _ in range(6):
        for client in (ana, bob):
            legal = client.get(f"/api/tables/{game_id}/legal/").json()
            if not legal["commands"]:
                continue
            body = {"command": legal["commands"][0], "expected_seq": legal["seq"]}
            answer = client.post(f"/api/tables/{game_id}/commands/", body, format="json").json()
            stream = client.get(f"/api/tables/{game_id}/events/?after={legal['seq']}").json()
            assert answer["events"] and answer["events"] == stream["events"]
