"""Games to audit, made through the services, and a way to tamper with one."""

from __future__ import annotations

from games import services
from games.models import Game, Snapshot
from tests.games.helpers import game_with_bots, humans_game, make_moderator, play_out
from tests.games.tampering import triggers_disabled


def played_out_game(user) -> Game:
    """Three easy bots play a whole game (each command through the services)."""
    game = game_with_bots(user, bots=3, join=False, level="easy")
    services.game_start(game_id=game.id, user=user)
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED
    return game


def problems(verdict) -> str:
    return " | ".join(verdict.problems)


def resigned_game(players) -> Game:
    """A cheap finished game: two players, the second resigns at once."""
    game = humans_game(players)
    services.game_resign(game_id=game.id, user=players[1])
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED
    return game


def aborted_game(players) -> Game:
    game = humans_game(players)
    moderator = make_moderator(players[0])
    services.game_abort(game_id=game.id, staff_user=moderator, reason="test")
    game.refresh_from_db()
    assert game.status == Game.Status.ABORTED
    return game


def game_in_progress(players) -> Game:
    return play_out(humans_game(players), players, moves=2)


def tamper_final_snapshot(game: Game) -> None:
    snapshot = Snapshot.objects.get(game=game, seq=game.head_seq)
    snapshot.state["resigned"] = [*snapshot.state["resigned"], 7]
    with triggers_disabled("games_snapshot"):  # snapshots are append-only too
        snapshot.save(update_fields=["state"])
