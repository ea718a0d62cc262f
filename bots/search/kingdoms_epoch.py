"""The rest of a Kingdoms epoch played out fast on a bare grid, for the search's playouts.

The engine's ``decide`` copies the whole state per command, far too slow for hundreds of
playouts a second, so a playout runs here on a list of pieces, by the rules of a turn
(a castle, a drawn tile, or the starting tile; the epoch ends when the grid is full or
nobody can act). Every seat follows the medium bot's valuation (``bots.strategies.
kingdoms``), restated in closed form on cached line parts: each empty space's row and
column part has an expected base (the tiles there plus, for each empty space, the chance
that a tile lands there times the mean unseen tile), and

- a resource or hazard of value v at space i is worth ``v * lead(i) - fill(i)``,
- a castle of rank k is worth ``k' * collect(i) - fill(i)`` less the keep value of a
  rank 2-4 castle while later epochs remain,
- Mountains, the Dragon, the Gold Mine and the Wizard by their effect on the lines.
"""

from __future__ import annotations

import math
import random
from collections import Counter
from typing import Any

from bots.strategies.kingdoms import CASTLE_KEEP_VALUE, STARTING_TILE_PATIENCE
from games.rules.kingdoms.board import LINES, LINES_THROUGH, NEIGHBOURS, SPACES, Piece, piece_of
from games.rules.kingdoms.scoring import wizard_bonus
from games.rules.kingdoms.tiles import DRAGON, GOLD_MINE, HAZARD, MOUNTAIN, RESOURCE, WIZARD

CASTLE = "castle"
DRAW_SPACES = 6  # spaces tried for each kind of tile when valuing a draw
# Each line's cells, closed by -1 (a line's end splits it like a Mountain).
LINE_CELLS = tuple((*line.cells, -1) for line in LINES)
_PIECE: dict[str, Piece] = {}


def piece(cell: str) -> Piece:
    found = _PIECE.get(cell)
    if found is None:
        made = piece_of(cell)
        if made is None:
            raise ValueError(f"{cell!r} holds no piece")
        found = _PIECE[cell] = made
    return found


def value(tile: str) -> int:
    """A resource's or hazard's value; 0 for the special tiles."""
    p = piece(tile)
    return p.value if p.kind in (RESOURCE, HAZARD) else 0


class Epoch:
    """One epoch from a world's position on, to be played out by ``play_out``."""

    def __init__(self, world: Any) -> None:
        self.players = world.players
        self.share = 1.0 / (self.players - 1)
        self.pieces: list[Piece | None] = [piece(c) if c else None for c in world.grid]
        self.castles = [list(hand) for hand in world.castles]
        self.supply = list(world.supply)
        self.starting = list(world.starting)
        self.drawn = world.drawn
        self.turn = world.turn
        self.no_luck = world.options["no_luck"]
        unseen = [value(t) for t in self.supply] + [value(t) for t in self.starting if t]
        self.unseen, self.unseen_sum = len(unseen), sum(unseen)
        self.unseen_down = sum(v for v in unseen if v < 0)
        self.supply_values = Counter(value(t) for t in self.supply)
        self.bonus = wizard_bonus(self.pieces)
        self.lines = [self._parts(cells, with_full=False) for cells in LINE_CELLS]

    # ---- lines ---------------------------------------------------------------------------
    def _parts(self, cells: tuple[int, ...], with_full: bool, pieces: list | None = None):
        """A line's parts: (empty spaces, base, resources, ranks per seat, all ranks,
        Dragon, multiplier); base counts no resource under the Dragon. Only the parts with
        an empty space unless ``with_full``."""
        pieces = self.pieces if pieces is None else pieces
        bonus, found = self.bonus, []
        base = resources = total = 0
        ranks = [0] * self.players
        dragon, mult, empty = False, 1, []
        for i in cells:
            p = pieces[i] if i >= 0 else None
            if p is None and i >= 0:
                empty.append(i)
                continue
            kind = MOUNTAIN if p is None else p.kind
            if p is None or kind == MOUNTAIN:
                if empty or with_full:
                    found.append(
                        (empty, base - resources if dragon else base, resources, ranks, total)
                        + (dragon, mult)
                    )
                base = resources = total = 0
                ranks = [0] * self.players
                dragon, mult, empty = False, 1, []
            elif kind == RESOURCE:
                base += p.value
                resources += p.value
            elif kind == HAZARD:
                base += p.value
            elif kind == CASTLE:
                rank = p.value + bonus.get(i, 0)
                ranks[p.seat] += rank
                total += rank
            elif kind == DRAGON:
                dragon = True
            elif kind == GOLD_MINE:
                mult = 2
        return found

    def _line_value(self, cells: tuple[int, ...], seat: int, pieces: list) -> float:
        total = 0.0
        for empty, base, _, ranks, all_ranks, dragon, mult in self._parts(cells, True, pieces):
            fill = self.fill_down if dragon else self.fill
            rel = ranks[seat] - (all_ranks - ranks[seat]) * self.share
            total += (base + len(empty) * fill) * mult * rel
        return total

    # ---- what the seat to act sees ---------------------------------------------------------
    def survey(self, seat: int, rng: random.Random) -> None:
        """Per empty space: ``up`` / ``down``, the seat's rank lead there for a resource /
        a hazard; ``fills``, what the space's expected tile is worth to the seat;
        ``collect``, a rank-1 castle's expected base. ``empty`` starts at a random space,
        so that ties go to a random one."""
        castles = sum(map(sum, self.castles))
        empties = self.pieces.count(None)
        chance = self.unseen / max(empties, self.unseen + castles, 1)
        count = max(self.unseen, 1)
        fill = self.fill = chance * self.unseen_sum / count
        self.fill_down = chance * self.unseen_down / count
        share = self.share
        up: dict[int, float] = {}
        down: dict[int, float] = {}
        fills: dict[int, float] = {}
        collect: dict[int, float] = {}
        for parts in self.lines:
            for empty, base, _, ranks, total, dragon, mult in parts:
                f = self.fill_down if dragon else fill
                rel = mult * (ranks[seat] - (total - ranks[seat]) * share)
                u = 0.0 if dragon else rel
                c = (base + (len(empty) - 1) * f) * mult
                fr = f * rel
                for j in empty:
                    if j in collect:
                        up[j] += u
                        down[j] += rel
                        fills[j] += fr
                        collect[j] += c
                    else:
                        up[j], down[j], fills[j], collect[j] = u, rel, fr, c
        self.up, self.down, self.fills, self.collect = up, down, fills, collect
        self.line_now: dict[int, float] = {}  # line values now, as the specials need them
        empty = list(collect)
        k = rng.randrange(len(empty)) if empty else 0
        self.empty = empty[k:] + empty[:k]

    def tile_gain(self, i: int, p: Piece, seat: int) -> float:
        kind = p.kind
        if kind == RESOURCE:
            return p.value * self.up[i] - self.fills[i]
        if kind == HAZARD:
            return p.value * self.down[i] - self.fills[i]
        if kind in (DRAGON, GOLD_MINE):
            gain = 0.0
            for n in LINES_THROUGH[i]:
                for empty, base, res, ranks, total, dragon, mult in self.lines[n]:
                    if i not in empty:
                        continue
                    f = self.fill_down if dragon else self.fill
                    rel = ranks[seat] - (total - ranks[seat]) * self.share
                    now = (base + len(empty) * f) * mult
                    if kind == DRAGON and not dragon:
                        after = (base - res + (len(empty) - 1) * self.fill_down) * mult
                    else:  # the Gold Mine doubles the part (or just takes a space)
                        after = (base + (len(empty) - 1) * f) * 2
                    gain += (after - now) * rel
            return gain
        # A Mountain splits its lines; the Wizard also raises the castles beside it.
        lines = set(LINES_THROUGH[i])
        after = list(self.pieces)
        after[i] = p
        saved = self.bonus
        if kind == WIZARD:
            self.bonus = wizard_bonus(after)
            for j in NEIGHBOURS[i]:
                if after[j] is not None and after[j].kind == CASTLE:
                    lines.update(LINES_THROUGH[j])
        gain = sum(self._line_value(LINE_CELLS[n], seat, after) for n in lines)
        self.bonus = saved
        for n in lines:
            if n not in self.line_now:
                self.line_now[n] = self._line_value(LINE_CELLS[n], seat, self.pieces)
            gain -= self.line_now[n]
        return gain

    def best_tile(self, tile: str, seat: int) -> tuple[float, int]:
        p = piece(tile)
        if p.kind == RESOURCE:
            v, fills, up = p.value, self.fills, self.up
            i = max(self.empty, key=lambda j: v * up[j] - fills[j])
        elif p.kind == HAZARD:
            v, fills, down = p.value, self.fills, self.down
            i = max(self.empty, key=lambda j: v * down[j] - fills[j])
        else:
            return max((self.tile_gain(j, p, seat), j) for j in self.empty)
        return self.tile_gain(i, p, seat), i

    def best_castle(self, seat: int, later: int) -> tuple[float, int, int]:
        best = (-math.inf, -1, 0)
        bonus, collect, fills = self.bonus, self.collect, self.fills
        for rank in (4, 3, 2, 1):
            if not self.castles[seat][rank - 1]:
                continue
            cost = CASTLE_KEEP_VALUE * rank * later if rank > 1 else 0.0
            i = max(self.empty, key=lambda j: (rank + bonus.get(j, 0)) * collect[j] - fills[j])
            worth = (rank + bonus.get(i, 0)) * collect[i] - fills[i] - cost
            if worth > best[0]:
                best = (worth, i, rank)
        return best

    def draw_value(self, seat: int, hidden: Counter) -> float:
        """The expected best placement of a tile drawn from ``hidden`` (specials: 0).
        Only the spaces with the best leads can be a tile's best, so only they are tried."""
        total = sum(hidden.values())
        if not total:
            return -math.inf
        up, down, fills = self.up, self.down, self.fills
        ups = sorted(self.empty, key=up.__getitem__)[-DRAW_SPACES:]
        downs = sorted(self.empty, key=down.__getitem__)[:DRAW_SPACES]
        gain = 0.0
        for v, n in hidden.items():
            if v > 0:
                gain += n * max(v * up[j] - fills[j] for j in ups)
            elif v < 0:
                gain += n * max(v * down[j] - fills[j] for j in downs)
        return gain / total

    # ---- playing -----------------------------------------------------------------------
    def choose(self, rng: random.Random, later: int) -> tuple[str, Any]:
        """The seat to act's move: ("place", space) for its drawn tile, ("castle",
        (space, rank)), ("starting", space), ("tile", (tile, space)) in No Luck, or
        ("draw", None)."""
        seat = self.turn
        self.survey(seat, rng)
        if self.drawn is not None:
            return "place", self.best_tile(self.drawn, seat)[1]
        choices: list[tuple[float, str, Any]] = []
        if any(self.castles[seat]):
            worth, i, rank = self.best_castle(seat, later)
            choices.append((worth, "castle", (i, rank)))
        own = self.starting[seat]
        if own is not None:
            gain, i = self.best_tile(own, seat)
            patience = STARTING_TILE_PATIENCE * len(self.empty) / SPACES
            choices.append((gain - patience * abs(gain), "starting", i))
        if self.supply and self.no_luck:
            for tile in set(self.supply):
                gain, i = self.best_tile(tile, seat)
                choices.append((gain, "tile", (tile, i)))
        elif self.supply:
            hidden = Counter(self.supply_values)
            hidden.update(value(t) for s, t in enumerate(self.starting) if t and s != seat)
            choices.append((self.draw_value(seat, hidden), "draw", None))
        _, kind, what = max(choices, key=lambda c: c[0])
        return kind, what

    def place(self, i: int, p: Piece, tile: str | None = None) -> None:
        self.pieces[i] = p
        if tile is not None:
            v = value(tile)
            self.unseen -= 1
            self.unseen_sum -= v
            self.unseen_down -= min(v, 0)
        if p.kind == WIZARD:
            self.bonus = wizard_bonus(self.pieces)
            self.lines = [self._parts(cells, with_full=False) for cells in LINE_CELLS]
        else:
            for n in LINES_THROUGH[i]:
                self.lines[n] = self._parts(LINE_CELLS[n], with_full=False)

    def play_turn(self, rng: random.Random, later: int) -> None:
        seat = self.turn
        kind, what = self.choose(rng, later)
        if kind == "place":
            self.place(what, piece(self.drawn), self.drawn)
            self.drawn = None
        elif kind == "castle":
            i, rank = what
            self.castles[seat][rank - 1] -= 1
            self.place(i, Piece(CASTLE, rank, seat))
        elif kind == "starting":
            own = self.starting[seat]
            self.place(what, piece(own), own)
            self.starting[seat] = None
        elif kind == "tile":
            tile, i = what
            self.supply.remove(tile)
            self.supply_values[value(tile)] -= 1
            self.place(i, piece(tile), tile)
        else:
            self.drawn = self.supply.pop(0)
            self.supply_values[value(self.drawn)] -= 1

    def can_act(self, seat: int) -> bool:
        return bool(self.supply) or self.starting[seat] is not None or any(self.castles[seat])

    def play_out(self, rng: random.Random, later: int, turns: int | None = None) -> bool:
        """Play to the epoch's end, or for ``turns`` turns; True if the epoch ended."""
        played = 0
        while None in self.pieces:
            if not any(self.can_act(s) for s in range(self.players)):
                return True
            if turns is not None and played >= turns and self.drawn is None:
                return False
            seat = self.turn
            if self.drawn is None and not self.can_act(seat):
                self.turn = (seat + 1) % self.players
                continue
            self.play_turn(rng, later)
            if self.drawn is None:
                self.turn = (seat + 1) % self.players
                played += 1
        return True

    def expected_gains(self, lines: list[int]) -> list[float]:
        """Each seat's expected gain from these lines as they stand: every part's expected
        base (empty spaces at the mean unseen tile) times the seat's ranks there."""
        self.survey(self.turn, random.Random(0))  # sets the fills
        gains = [0.0] * self.players
        for n in lines:
            for empty, base, _, ranks, _, dragon, mult in self._parts(LINE_CELLS[n], True):
                f = self.fill_down if dragon else self.fill
                est = (base + len(empty) * f) * mult
                for s, rank in enumerate(ranks):
                    gains[s] += est * rank
        return gains
