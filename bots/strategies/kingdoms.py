"""Kingdoms bots. ``medium``: a greedy player that values every legal command by its
effect on the expected epoch score, its own gains minus the opponents' average.

It decides from its own view only. Each part of a line (split at Mountains) gets an
expected base: the tiles already there plus, for every empty space, the chance that a
tile lands there times the mean value of the tiles it has not seen (resources count 0
where the Dragon stands; the Gold Mine doubles). A part is worth that base times the
rank difference between the bot and its average opponent. Then:

- a castle is worth its rank (Wizard bonus included) times the expected bases of its
  row and column part, minus an opportunity cost for rank 2-4 castles, which are lost
  once placed while another epoch remains;
- a known tile (drawn, starting, or chosen in No Luck) goes where it helps the bot most
  (resources into its strong lines, hazards and the Dragon into its opponents');
- drawing is worth the expected best placement of an unseen tile;
- the starting tile is held back a little while the board is empty, since it can be
  placed later with more knowledge.

Numeric tiles and castles change only two parts, so their value is a closed formula per
space; Mountains, the Dragon, the Gold Mine and the Wizard are tried on a copy.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence
from typing import Any

from bots.strategies import register
from games.rules.base import Command, Ruleset
from games.rules.kingdoms.board import LINES, LINES_THROUGH, Piece, piece_of
from games.rules.kingdoms.scoring import wizard_bonus
from games.rules.kingdoms.tiles import (
    DRAGON,
    GOLD_MINE,
    HAZARD,
    MOUNTAIN,
    RESOURCE,
    WIZARD,
    tile_set,
)
from games.rules.kingdoms.tiles import kind_of as tile_kind

CASTLE_KEEP_VALUE = 3.0  # gold per rank a rank 2-4 castle is worth in each later epoch
STARTING_TILE_PATIENCE = 0.6  # share of its value a starting tile waits for, board empty


class _Part:
    __slots__ = ("est", "mult", "rel", "fill", "dragon")

    def __init__(self, est: float, mult: int, rel: float, fill: float, dragon: bool) -> None:
        self.est, self.mult, self.rel, self.fill, self.dragon = est, mult, rel, fill, dragon


class Estimate:
    """The bot's expectation of the epoch's scoring from what ``seat`` sees."""

    def __init__(self, view: dict[str, Any], seat: int) -> None:
        self.seat = seat
        players = view["players"]
        self.opp_weight = 1.0 / (players - 1)
        self.pieces: list[Piece | None] = [
            piece_of(cell["code"]) if cell else None for row in view["grid"] for cell in row
        ]
        self.bonus = wizard_bonus(self.pieces)
        self.empty = [i for i, p in enumerate(self.pieces) if p is None]
        on_board = {cell["tile"] for row in view["grid"] for cell in row if cell and "tile" in cell}
        own = view["starting_tiles"][seat]["tile"]
        drawn = view["drawn_tile"]["tile"] if view["drawn_tile"] else None
        if view["supply"]["face_up"] is not None:
            self.supply_kinds = Counter(tile_kind(t) for t in view["supply"]["face_up"])
            unseen = list(view["supply"]["face_up"])
        else:
            hidden = [t for t in tile_set(view["options"]["wizard"]) if t not in on_board]
            hidden = [t for t in hidden if t not in (own, drawn)]
            self.supply_kinds = Counter(tile_kind(t) for t in hidden)
            unseen = hidden + ([own] if own else [])
        tiles_left = view["supply"]["count"] + sum(s["held"] for s in view["starting_tiles"])
        castles_left = sum(sum(hand) for hand in view["castles"])
        spaces = max(len(self.empty), tiles_left + castles_left, 1)
        chance = tiles_left / spaces  # that an empty space ends up holding a tile
        values = [tile_kind(t)[1] or 0 for t in unseen]
        count = max(len(values), 1)
        self.fill = chance * sum(values) / count
        self.fill_dragon = chance * sum(v for v in values if v < 0) / count
        self.parts_through = self._parts_through()

    # ---- parts and lines ---------------------------------------------------------------
    def _parts(
        self, n: int, pieces: list[Piece | None], bonus: dict[int, int]
    ) -> list[tuple[list[int], _Part]]:
        found: list[tuple[list[int], _Part]] = []
        cells: list[int] = []
        for i in (*LINES[n].cells, None):
            piece = pieces[i] if i is not None else None
            if i is not None and (piece is None or piece.kind != MOUNTAIN):
                cells.append(i)
                continue
            found.append((cells, self._part(cells, pieces, bonus)))
            cells = []
        return found

    def _part(self, cells: list[int], pieces: list[Piece | None], bonus: dict[int, int]) -> _Part:
        resources = hazards = empties = 0
        dragon = gold = False
        rel = 0.0
        for i in cells:
            piece = pieces[i]
            if piece is None:
                empties += 1
            elif piece.kind == RESOURCE:
                resources += piece.value
            elif piece.kind == HAZARD:
                hazards += piece.value
            elif piece.kind == DRAGON:
                dragon = True
            elif piece.kind == GOLD_MINE:
                gold = True
            elif piece.kind == "castle":
                rank = piece.value + bonus.get(i, 0)
                rel += rank if piece.seat == self.seat else -rank * self.opp_weight
        fill = self.fill_dragon if dragon else self.fill
        mult = 2 if gold else 1
        est = ((0 if dragon else resources) + hazards + empties * fill) * mult
        return _Part(est, mult, rel, fill, dragon)

    def _line_value(self, n: int, pieces: list[Piece | None], bonus: dict[int, int]) -> float:
        return sum(part.est * part.rel for _, part in self._parts(n, pieces, bonus))

    def _parts_through(self) -> dict[int, tuple[_Part, _Part]]:
        """The row part and the column part each empty space lies in."""
        part_in_line: list[dict[int, _Part]] = []
        for n in range(len(LINES)):
            part_in_line.append(
                {i: part for cells, part in self._parts(n, self.pieces, self.bonus) for i in cells}
            )
        return {
            i: (part_in_line[LINES_THROUGH[i][0]][i], part_in_line[LINES_THROUGH[i][1]][i])
            for i in self.empty
        }

    # ---- values of single moves ----------------------------------------------------------
    def castle(self, i: int, rank: int) -> float:
        k = rank + self.bonus.get(i, 0)
        return sum(
            k * (p.est - p.fill * p.mult) - p.fill * p.mult * p.rel for p in self.parts_through[i]
        )

    def number(self, i: int, value: int) -> float:
        return sum(
            ((0 if value > 0 and p.dragon else value) - p.fill) * p.mult * p.rel
            for p in self.parts_through[i]
        )

    def special(self, i: int, kind: str) -> float:
        pieces = list(self.pieces)
        pieces[i] = Piece(kind)
        lines: Sequence[int]
        if kind == WIZARD:
            bonus, lines = wizard_bonus(pieces), range(len(LINES))
        else:
            bonus, lines = self.bonus, LINES_THROUGH[i]
        return sum(
            self._line_value(n, pieces, bonus) - self._line_value(n, self.pieces, self.bonus)
            for n in lines
        )

    def tile(self, i: int, kind: tuple[str, int | None]) -> float:
        name, value = kind
        return self.number(i, value) if value is not None else self.special(i, name)

    def best_tile(self, kind: tuple[str, int | None]) -> tuple[float, int]:
        return max((self.tile(i, kind), i) for i in self.empty)

    def draw(self) -> float:
        total = sum(self.supply_kinds.values())
        if not total:
            return float("-inf")
        return sum(n * self.best_tile(kind)[0] for kind, n in self.supply_kinds.items()) / total


def _castle_cost(view: dict[str, Any], rank: int) -> float:
    options = view["options"]
    if options["last_castle"]:
        later = 0 if view["final_epoch"] else 1
    else:
        later = (view["epochs"] - view["epoch"]) if rank > 1 else 0
    return CASTLE_KEEP_VALUE * rank * later


def command_values(ruleset: Ruleset, state: Any, seat: int) -> list[tuple[float, Command]]:
    """Every legal command with its expected effect on this epoch's score (from the view)."""
    legal = ruleset.legal_commands(state, seat)
    if len(legal) == 1:
        return [(0.0, legal[0])]
    view = ruleset.view(state, seat)
    estimate = Estimate(view, seat)
    drawn = view["drawn_tile"]["tile"] if view["drawn_tile"] else None
    own = view["starting_tiles"][seat]["tile"]
    patience = STARTING_TILE_PATIENCE * len(estimate.empty) / 30
    cache: dict[Any, float] = {}

    def value(command: Command) -> float:
        kind = command["type"]
        if kind == "draw_tile":
            return estimate.draw()
        r, c = command["space"]
        i = r * 6 + c
        if kind == "place_castle":
            rank = command["rank"]
            return estimate.castle(i, rank) - _castle_cost(view, rank)
        if kind == "place_starting_tile":
            gain = estimate.tile(i, tile_kind(own))
            return gain - patience * abs(gain)
        tile = command.get("tile", drawn)
        # A place_tile without "tile" places the drawn one, which is never None then.
        key = (tile_kind(tile), i)  # type: ignore[arg-type]  # two copies: same worth
        if key not in cache:
            cache[key] = estimate.tile(i, key[0])
        return cache[key]

    return [(value(command), command) for command in legal]


def greedy(ruleset: Ruleset, state: Any, seat: int, rng: random.Random) -> Command:
    """Medium: the legal command with the best expected effect on this epoch's score."""
    values = command_values(ruleset, state, seat)
    if len(values) == 1:
        return values[0][1]
    return max(values, key=lambda pair: (pair[0], rng.random()))[1]


register("kingdoms", "medium", greedy)
