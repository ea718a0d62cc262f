"""A resignation and the final result: the log, the outcome, the ranking and the words
agree. Resigning hands the seat to a bot and ranks the resigner last, even when that
bot goes on to complete a Kingdom Cards kingdom."""

from __future__ import annotations

import pytest

from games import services
from games.models import Game, GameEvent
from tests.games.helpers import game_with_bots, pin_seed, play_out

pytestmark = pytest.mark.django_db(transaction=True)

# With this seed the resigner's seat (0), played on by a medium bot, completes a kingdom.
SEED = "resign-seed-2"


def test_a_resigned_seat_that_completes_a_kingdom_ranks_last_and_every_line_says_so(api):
    client = api("ana")
    game = game_with_bots(client.user, ruleset="kingdom-cards", bots=2, level="medium")
    pin_seed(game, SEED)
    services.game_start(game_id=game.id, user=client.user)
    seat = game.seats.get(user=client.user).number
    services.game_resign(game_id=game.id, user=client.user)
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED
    completed = GameEvent.objects.get(game=game, type="kingdom_completed")
    assert completed.public["seats"] == [seat]

    # The outcome: the resigner last; the others in the rules' order.
    ranking = game.outcome["ranking"]
    assert ranking[-1] == [seat]
    assert seat not in game.outcome["winners"]

    # The banner reads the view's outcome: the same result.
    detail = client.get(f"/api/tables/{game.id}/").json()
    assert detail["view"]["outcome"] == game.outcome
    assert detail["view"]["resigned"] == [seat]

    events = client.get(f"/api/tables/{game.id}/events/?after=0&limit=1000").json()
    texts = {e["type"]: e["text"] for e in events["events"]}
    names = {s["seat"]: s["name"] for s in detail["seats"]}
    assert names[seat] == "ana (bot)"  # a bot plays the seat on
    # ...but in the log the person who left keeps their own name, never "(bot)".
    assert not any("ana (bot)" in text for text in texts.values())
    assert texts["kingdom_completed"] == "ana completed a kingdom, which ends the game."
    names[seat] = "ana"
    winner = names[game.outcome["winners"][0]]
    line = texts["result_declared"]
    assert line.startswith(f"Game over: {winner} wins")
    # the places in the outcome's order, then why the resigner is last
    order = [line.index(names[g[0]], len("Game over: ")) for g in ranking]
    assert order == sorted(order)
    assert line.endswith(
        "ana resigned: a player who leaves ranks last, whatever their seat "
        "(played on by a bot) scored."
    )


def test_a_game_nobody_left_declares_its_winner_without_a_note(api):
    client = api("ana")
    game = game_with_bots(client.user, ruleset="kingdom-cards", bots=2, level="medium")
    pin_seed(game, SEED)
    services.game_start(game_id=game.id, user=client.user)
    # The player makes the first legal move each turn; the bots move inline.
    play_out(game, [client.user])
    assert game.status == Game.Status.FINISHED
    events = client.get(f"/api/tables/{game.id}/events/?after=0&limit=1000").json()
    result = next(e for e in events["events"] if e["type"] == "result_declared")
    assert result["text"].startswith("Game over: ")
    assert "ranks last" not in result["text"]
