"""Epochs: how one begins (the shuffle, the secret starting tiles, the start player),
when it ends, its scoring, and what happens between epochs."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from games.rules.base import Event, Outcome, rank_by_score
from games.rules.kingdoms.board import LINES, piece_of
from games.rules.kingdoms.castles import castles_come_off, starting_castles
from games.rules.kingdoms.events import SERVER_ONLY, apply
from games.rules.kingdoms.scoring import score_lines
from games.rules.kingdoms.state import KingdomsState
from games.rules.kingdoms.tiles import tile_set
from games.rules.kingdoms.variants import is_last_epoch

STARTING_GOLD = 50


class Facts:
    """Events being decided, folded as they are added into a private working copy so
    that later facts can be decided from the state the earlier ones produce."""

    def __init__(self, state: KingdomsState) -> None:
        self.state = state
        self.events: list[Event] = []

    def add(self, event: Event) -> None:
        self.events.append(event)
        self.state = apply(self.state, event)


def setup_events(options: dict[str, Any], players: int, rng: random.Random) -> list[Event]:
    """Castles per the player count, 50 gold each, then epoch 1 with a random first
    player drawn from the game's seed."""
    set_up = Event(
        "game_set_up",
        {
            "options": dict(options),
            "players": players,
            "castles": [starting_castles(players, options["last_castle"]) for _ in range(players)],
            "gold": [STARTING_GOLD] * players,
        },
    )
    first = rng.randrange(players)
    return [set_up, epoch_started(options, players, 1, first, "random", rng)]


def epoch_started(
    options: dict[str, Any],
    players: int,
    epoch: int,
    start_player: int,
    reason: str,
    rng: random.Random,
) -> Event:
    """All tiles shuffled into the supply; each player draws a secret starting tile.

    The supply's order goes to private[-1] (the server only), each starting tile to its
    holder's private part. In No Luck the tiles lie face up and nobody holds one.
    """
    tiles = list(tile_set(options["wizard"]))
    public: dict[str, Any] = {"epoch": epoch, "start_player": start_player, "start_reason": reason}
    if options["no_luck"]:
        public["face_up_supply"] = tiles
        public["supply_count"] = len(tiles)
        return Event("epoch_started", public)
    rng.shuffle(tiles)
    starting, supply = tiles[:players], tiles[players:]
    public["supply_count"] = len(supply)
    private: dict[int, dict[str, Any]] = {SERVER_ONLY: {"supply": supply}}
    for seat, tile in enumerate(starting):
        private[seat] = {"starting_tile": tile}
    return Event("epoch_started", public, private)


def can_act(state: KingdomsState, seat: int) -> bool:
    """Whether ``seat`` has any of the three actions: an empty space and a castle, the
    supply, or an unplaced starting tile."""
    if None not in state.grid:
        return False
    return bool(state.supply) or state.starting[seat] is not None or any(state.castles[seat])


def epoch_is_over(state: KingdomsState) -> bool:
    """No space is empty, or nobody can act any more (then empty spaces count 0)."""
    return not any(can_act(state, seat) for seat in state.seats)


def next_start_player(gold: Sequence[int], previous: int) -> tuple[int, str]:
    """Most gold starts; on a tie, the first tied player clockwise from the previous
    epoch's start player, that player included (DECISION)."""
    best = max(gold)
    tied = [seat for seat, g in enumerate(gold) if g == best]
    if len(tied) == 1:
        return tied[0], "most_gold"
    players = len(gold)
    for step in range(players):
        seat = (previous + step) % players
        if seat in tied:
            return seat, "tie_clockwise"
    raise AssertionError("unreachable: some seat holds the most gold")


def end_epoch(facts: Facts, rng: random.Random) -> None:
    """Score the lines not yet scored, then finish the game or begin the next epoch."""
    state = facts.state
    unscored = [n for n, gains in enumerate(state.line_gains) if gains is None]
    pieces = [piece_of(cell) for cell in state.grid]
    lines = []
    total = [0] * state.players
    for n, gains in zip(unscored, score_lines(pieces, unscored), strict=True):
        per_seat = [gains.get(seat, 0) for seat in state.seats]
        lines.append({"line": LINES[n].kind, "index": LINES[n].index, "gains": per_seat})
        total = [a + b for a, b in zip(total, per_seat, strict=True)]
    facts.add(
        Event(
            "epoch_scored",
            {
                "epoch": state.epoch,
                "lines": lines,
                "gains": total,
                "epoch_gains": [a + b for a, b in zip(state.epoch_gains[-1], total, strict=True)],
                "gold": [a + b for a, b in zip(state.gold, total, strict=True)],
            },
        )
    )
    state = facts.state
    if is_last_epoch(state):
        facts.add(
            Event(
                "game_finished",
                {
                    "epoch": state.epoch,
                    "scores": list(state.gold),
                    "ranking": rank_by_score(dict(enumerate(state.gold))),
                },
            )
        )
        return
    hands, returned, removed = castles_come_off(
        state.castles, state.grid, state.options["last_castle"]
    )
    facts.add(
        Event("castles_returned", {"castles": hands, "returned": returned, "removed": removed})
    )
    start, reason = next_start_player(facts.state.gold, state.start_player)
    facts.add(epoch_started(state.options, state.players, state.epoch + 1, start, reason, rng))


def final_outcome(state: KingdomsState) -> Outcome | None:
    """Most gold wins; ties share the victory (no official tie-breaker)."""
    if not state.finished:
        return None
    scores = dict(enumerate(state.gold))
    breakdown = {
        seat: {
            "start": STARTING_GOLD,
            **{f"epoch_{n}": gains[seat] for n, gains in enumerate(state.epoch_gains, start=1)},
            "gold": state.gold[seat],
        }
        for seat in state.seats
    }
    return Outcome(scores, rank_by_score(scores), breakdown)
