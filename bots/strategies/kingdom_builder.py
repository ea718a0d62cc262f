"""Kingdom Builder bots. ``medium``: greedy on the gold each command adds now.

Greedy values every legal command by the change in its seat's final score (castles, the
cards in play and the Crossroads tasks, as if the game ended now; the gold a Nomads card
pays at once for a build, a Treasure taken), plus a bonus for each location tile a
settlement picks up and a penalty for each tile a move loses. Every settlement move (Barn,
Harbor, Paddock, Caravan, each Resettlement step) is weighed the same way, less a small
threshold, so a move is made only when it gains. The expansions' other commands get simple
fixed values (a Donation is worth three builds, a Sword removes the settlement its victim
would miss most, pieces are placed once and then left alone). It reads only public facts
(the board, settlements, tiles, the card played this turn) — never a hand or the draw
pile — and always returns a command from ``legal_commands``.
"""

from __future__ import annotations

import random
from types import SimpleNamespace
from typing import Any

from bots.strategies import register
from games.rules.base import Command, Ruleset
from games.rules.kingdom_builder.arrival import TREASURE_GOLD
from games.rules.kingdom_builder.board import COLS, NEIGHBOURS
from games.rules.kingdom_builder.cards import CARDS, PLAY_CARDS, families
from games.rules.kingdom_builder.crossroads_locations import city_hall_hexes
from games.rules.kingdom_builder.placement import build_targets, free_hexes
from games.rules.kingdom_builder.scoring import castles, scoring_settlements
from games.rules.kingdom_builder.tasks import task_gold
from games.rules.kingdom_builder.terrain import BUILDABLE_TERRAINS
from games.rules.kingdom_builder.tiles import MOVE, TILES

TILE_GAINED = 5.0  # a tile is worth roughly an extra settlement or move each turn
TILE_LOST = 4.0
NEAR_LOCATION = 0.6  # two steps from a location with tiles: a tile is within reach
MOVE_THRESHOLD = 0.5  # a move must gain something to be worth making
EXACT_MOVES = 8  # moves re-scored exactly after a quick estimate
# Fixed values of the expansions' commands that no board score measures well.
FIXED = {
    "donation": 6.0,  # three builds
    "sword": 2.5,
    "resettlement": 0.4,
    "nomad_outpost": 0.2,
    "place_piece": 0.3,  # a wagon or ship widens the adjacency rule; a warrior blocks
    "move_piece": -0.2,
    "take_back_piece": -0.6,
    "wall": 0.2,
}


class Judge:
    """Scores candidate positions for one seat from public facts."""

    def __init__(self, state: Any, seat: int) -> None:
        self.state = state
        self.seat = seat
        self.board = state.board
        self.players = scoring_settlements(state)
        self.base = self.score(self.players[seat])

    def score(self, own: set[int], seat: int | None = None) -> float:
        seat = self.seat if seat is None else seat
        players = dict(self.players)
        players[seat] = own
        total = castles(self.board, own)
        for card in self.state.cards:
            if card in CARDS:
                total += CARDS[card](self.board, players, seat)
        for task in self.state.tasks:
            total += task_gold(task, self.board, own)
        return float(total)

    def paid_now(self, hex_: int) -> float:
        """Gold the Nomads cards in play pay at once for a settlement built there."""
        return float(
            sum(
                PLAY_CARDS[c](self.state, self.seat, hex_)
                for c in self.state.cards
                if c in PLAY_CARDS
            )
        )

    def treasure_at(self, hexes: list[int] | tuple[int, ...]) -> float:
        """Gold of the face-up Treasure tiles a settlement arriving on ``hexes`` takes."""
        tiles = self.state.nomad_tiles
        if not tiles:
            return 0.0
        spaces = {n for h in hexes for n in NEIGHBOURS[h] if tiles.get(n) == "treasure"}
        return float(TREASURE_GOLD * len(spaces))

    def tiles_at(self, hex_: int, own: set[int]) -> float:
        s = self.state
        gain = 0.0
        for n in NEIGHBOURS[hex_]:
            kind = self.board.locations.get(n)
            if kind is None or s.tiles_left.get(n, 0) <= 0:
                continue
            if n not in s.taken_from[self.seat] and not any(m in own for m in NEIGHBOURS[n]):
                gain += TILE_GAINED
        return gain

    def near_location(self, hex_: int) -> float:
        s = self.state
        for n in NEIGHBOURS[hex_]:
            for m in NEIGHBOURS[n]:
                if (
                    m in self.board.locations
                    and s.tiles_left.get(m, 0) > 0
                    and m not in s.taken_from[self.seat]
                ):
                    return NEAR_LOCATION
        return 0.0

    def build(self, hex_: int) -> float:
        own = self.players[self.seat]
        after = own | {hex_}
        return (
            self.score(after)
            - self.base
            + self.tiles_at(hex_, own)
            + self.near_location(hex_)
            + self.paid_now(hex_)
            + self.treasure_at((hex_,))
        )

    def city_hall(self, centre: int) -> float:
        own = self.players[self.seat]
        hexes = city_hall_hexes(centre)
        gain = sum(self.tiles_at(h, own) for h in hexes) + self.treasure_at(hexes)
        return self.score(own | set(hexes)) - self.base + gain

    def victim_loss(self, hex_: int) -> float:
        """What removing the settlement on ``hex_`` costs its owner (for the Sword)."""
        victim = self.state.owner[hex_]
        own = self.players[victim]
        held = {t["location"] for t in self.state.held[victim]}
        lost = sum(
            TILE_LOST
            for n in NEIGHBOURS[hex_]
            if n in held and not any(m in own and m != hex_ for m in NEIGHBOURS[n])
        )
        return self.score(own, victim) - self.score(own - {hex_}, victim) + lost

    def losses(self, source: int, after: set[int]) -> float:
        held = {t["location"] for t in self.state.held[self.seat]}
        return sum(
            TILE_LOST
            for n in NEIGHBOURS[source]
            if n in held and not any(m in after for m in NEIGHBOURS[n])
        )

    def move(self, source: int, to: int) -> float:
        own = self.players[self.seat]
        after = (own - {source}) | {to}
        return (
            self.score(after)
            - self.base
            + self.tiles_at(to, own - {source})
            + self.treasure_at((to,))
            - self.losses(source, after)
            - MOVE_THRESHOLD
        )


def _hex(pair: list[int]) -> int:
    return pair[0] * COLS + pair[1]


def _terrain_value(judge: Judge, terrain: str) -> float:
    """The best three single builds the terrain would allow now (a rough guide)."""
    s = judge.state
    targets = build_targets(s, free_hexes(s, terrain), judge.seat)
    if not targets:
        return -10.0
    sample = targets if len(targets) <= 24 else random.Random(len(targets)).sample(targets, 24)
    values = sorted((judge.build(h) for h in sample), reverse=True)
    return sum(values[:3])


def _families_bonus(judge: Judge, hex_: int) -> float:
    """Families pays when this third mandatory settlement completes a straight line."""
    s = judge.state
    if "families" not in s.cards or s.action is not None or s.placed != 2:
        return 0.0
    after = SimpleNamespace(mandatory_hexes=[*s.mandatory_hexes, hex_])
    return float(families(after, judge.seat, hex_))


def _expansion_value(judge: Judge, command: Command) -> float | None:
    """Values of the expansions' commands, or None for the base game's."""
    kind, key = command["type"], command.get("tile", "")
    if kind == "use_tile" and key == "quarry" or kind == "place_wall":
        return FIXED["wall"]
    if kind == "use_tile" and key == "city_hall":
        return judge.city_hall(_hex(command["to"]))
    if kind == "use_tile" and TILES[key].piece is not None:
        return FIXED["move_piece" if "from" in command else "place_piece"]
    if kind == "take_back_piece":
        return FIXED["take_back_piece"]
    if kind == "use_nomad_tile":
        return FIXED["donation" if key.startswith("donation_") else key]
    if kind == "remove_settlement":
        return judge.victim_loss(_hex(command["hex"]))
    if kind == "finish_action":
        return 0.0
    return None


def _value(judge: Judge, command: Command, cache: dict[Any, float]) -> float:
    kind = command["type"]
    fixed = _expansion_value(judge, command)
    if fixed is not None:
        return fixed
    if kind in ("build", "use_tile"):  # settlement moves are weighed in ``_moves``
        h = _hex(command["hex"] if kind == "build" else command["to"])
        if h not in cache:
            cache[h] = judge.build(h)
        if kind == "use_tile":
            return cache[h] + 0.3
        return cache[h] + _families_bonus(judge, h)
    if kind == "end_turn":
        return 0.0
    if kind in ("choose_terrain", "play_terrain_card", "take_terrain_card"):
        return _terrain_value(judge, command["terrain"])
    if kind in ("draw_terrain_card", "swap_terrain_card"):
        values = [_terrain_value(judge, t) for t in BUILDABLE_TERRAINS]
        return sum(values) / len(values)
    if kind == "discard_tile":
        for tile in judge.state.held[judge.seat]:
            if tile["location"] == _hex(command["location"]):
                return 1.0 if tile["used"] or tile["fresh"] else 0.0
    return 0.0


def _settlement_move(command: Command) -> bool:
    """Barn, Harbor, Paddock, Caravan, and Resettlement's steps."""
    if command["type"] == "move_settlement":
        return True
    return command["type"] == "use_tile" and TILES[command["tile"]].effect == MOVE


def _moves(judge: Judge, moves: list[Command]) -> list[tuple[float, Command]]:
    """Estimate every move as removal + arrival, then score the best few exactly."""
    own = judge.players[judge.seat]
    removal: dict[int, float] = {}
    arrival: dict[int, float] = {}
    estimates = []
    for command in moves:
        source, to = _hex(command["from"]), _hex(command["to"])
        if source not in removal:
            removal[source] = judge.score(own - {source}) - judge.base
        if to not in arrival:
            # Tiles and Treasure in the estimate too, so a move to them is not cut below.
            gains = judge.tiles_at(to, own) + judge.treasure_at((to,))
            arrival[to] = judge.score(own | {to}) - judge.base + gains
        estimates.append((removal[source] + arrival[to], command))
    estimates.sort(key=lambda pair: pair[0], reverse=True)
    return [(judge.move(_hex(c["from"]), _hex(c["to"])), c) for _, c in estimates[:EXACT_MOVES]]


def scored_commands(ruleset: Ruleset, state: Any, seat: int) -> list[tuple[float, Command]]:
    """The legal commands worth weighing, each with the gold it adds now (moves: only the
    best few by a quick estimate)."""
    commands = ruleset.bot_commands(state, seat)
    if not commands:
        raise LookupError(f"seat {seat} has no legal command")
    if len(commands) == 1:
        return [(0.0, commands[0])]
    judge = Judge(state, seat)
    cache: dict[Any, float] = {}
    # Settlement moves (tiles and Resettlement's steps) are weighed by what the move does
    # to the cards; a wagon's or ship's move ("from" too) keeps its fixed value.
    moves = [c for c in commands if _settlement_move(c)]
    scored = [(_value(judge, c, cache), c) for c in commands if not _settlement_move(c)]
    if moves:
        scored.extend(_moves(judge, moves))
    return scored


def greedy(ruleset: Ruleset, state: Any, seat: int, rng: random.Random) -> Command:
    """Medium: the command adding the most gold now (ties broken at random)."""
    scored = scored_commands(ruleset, state, seat)
    if len(scored) == 1:
        return scored[0][1]
    best = max(value for value, _ in scored)
    return rng.choice([c for value, c in scored if value >= best - 1e-9])


register("kingdom-builder", "medium", greedy)
