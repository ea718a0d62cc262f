"""Sections, their 180° rotation, the 20×20 hex grid and its geometry.

Hexes are addressed by ``(row, col)`` outside the engine and by a flat index
``row * 20 + col`` inside it. The grid is "odd-r": pointy-top hexes whose odd rows sit half
a hex to the right (the board data's offset rule). Straight lines run along the three hex
axes; to walk them we convert to axial coordinates, where every direction is a constant
step, and precompute one table of steps per hex.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

from games.rules.kingdom_builder.terrain import (
    BUILDABLE_LETTERS,
    BUILDABLE_TERRAINS,
    LETTER_TERRAIN,
    MOUNTAIN,
    WATER,
)

ROWS = COLS = 20
SIZE = ROWS * COLS
SECTION_SIZE = 10

# Axial (dq, dr) steps: east, north-east, north-west, west, south-west, south-east.
# Direction d and d + 3 are opposite, so 0, 1 and 2 name the three axes.
DIRECTIONS: tuple[tuple[int, int], ...] = ((1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1))
AXES = (0, 1, 2)

AREA_TERRAINS = frozenset((*BUILDABLE_TERRAINS, WATER, MOUNTAIN))

_DATA_FILE = Path(__file__).parent / "data" / "boards.json"


def index(row: int, col: int) -> int:
    return row * COLS + col


def coords(i: int) -> list[int]:
    """JSON-ready ``[row, col]`` of a flat index."""
    return [i // COLS, i % COLS]


def _to_axial(row: int, col: int) -> tuple[int, int]:
    return col - (row - (row & 1)) // 2, row


def _from_axial(q: int, r: int) -> tuple[int, int]:
    return r, q + (r - (r & 1)) // 2


def _on_board(row: int, col: int) -> bool:
    return 0 <= row < ROWS and 0 <= col < COLS


def _step(i: int, direction: int, distance: int = 1) -> int:
    q, r = _to_axial(i // COLS, i % COLS)
    dq, dr = DIRECTIONS[direction]
    row, col = _from_axial(q + dq * distance, r + dr * distance)
    return index(row, col) if _on_board(row, col) else -1


# STEPS[i][d]: the hex next to i in direction d (-1 off the board); JUMPS: two hexes away.
STEPS: tuple[tuple[int, ...], ...] = tuple(
    tuple(_step(i, d) for d in range(6)) for i in range(SIZE)
)
JUMPS: tuple[tuple[int, ...], ...] = tuple(
    tuple(_step(i, d, 2) for d in range(6)) for i in range(SIZE)
)
NEIGHBOURS: tuple[tuple[int, ...], ...] = tuple(
    tuple(j for j in STEPS[i] if j >= 0) for i in range(SIZE)
)
# The same as sets, for the scoring cards' set arithmetic (done in C, not per hex).
NEIGHBOUR_SETS: tuple[frozenset[int], ...] = tuple(frozenset(n) for n in NEIGHBOURS)
# The four 10×10 quadrants (sectors for Lords and Farmers): 0 top-left, 1 top-right,
# 2 bottom-left, 3 bottom-right.
SECTOR: tuple[int, ...] = tuple(
    (i // COLS // SECTION_SIZE) * 2 + (i % COLS) // SECTION_SIZE for i in range(SIZE)
)
# The four edges of the whole board (Crossroads' Advance and Compass Points); a corner
# hex lies on two of them.
SIDES: dict[str, frozenset[int]] = {
    "north": frozenset(i for i in range(SIZE) if i // COLS == 0),
    "south": frozenset(i for i in range(SIZE) if i // COLS == ROWS - 1),
    "west": frozenset(i for i in range(SIZE) if i % COLS == 0),
    "east": frozenset(i for i in range(SIZE) if i % COLS == COLS - 1),
}
EDGE: frozenset[int] = frozenset().union(*SIDES.values())


@lru_cache(maxsize=1)
def board_data() -> dict[str, Any]:
    """The packaged board data (sections, format notes, provenance)."""
    with _DATA_FILE.open(encoding="utf-8") as handle:
        data: dict[str, Any] = json.load(handle)
    return data


def section_names(expansion: str = "base") -> tuple[str, ...]:
    return tuple(
        name for name, s in board_data()["sections"].items() if s["expansion"] == expansion
    )


BASE_SECTIONS = section_names("base")
NOMADS_SECTIONS = section_names("nomads")
CROSSROADS_SECTIONS = section_names("crossroads")
FIRST_GAME_SECTIONS = ("tavern", "paddock", "oasis", "farm")
FIRST_GAME_CARDS = ("fishermen", "merchants", "knights")


@dataclass(frozen=True)
class Section:
    """One 10×10 section as laid: its letters and special hexes in section coordinates."""

    name: str
    rows: tuple[str, ...]
    locations: tuple[tuple[int, int, str], ...]
    castles: tuple[tuple[int, int], ...]
    nomad_spaces: tuple[tuple[int, int], ...]


def section(name: str, rotated: bool = False) -> Section:
    """Section ``name`` upright or rotated 180° (rotated[r][c] = rows[9-r][9-c])."""
    raw = board_data()["sections"][name]
    last = SECTION_SIZE - 1

    def turn(r: int, c: int) -> tuple[int, int]:
        return (last - r, last - c) if rotated else (r, c)

    rows = tuple(raw["rows"])
    if rotated:
        rows = tuple(row[::-1] for row in reversed(rows))
    return Section(
        name=name,
        rows=rows,
        locations=tuple((*turn(loc["row"], loc["col"]), loc["tile"]) for loc in raw["locations"]),
        castles=tuple(turn(r, c) for r, c in raw["castles"]),
        nomad_spaces=tuple(turn(r, c) for r, c in raw["nomad_spaces"]),
    )


class Board:
    """The static 20×20 board: letters, terrain, special hexes. Never mutated."""

    __slots__ = (
        "letters",
        "terrain",
        "buildable",
        "locations",
        "castles",
        "nomad_spaces",
        "special",
        "water",
        "mountain",
        "fishing",
        "mining",
        "working",
        "special_near",
        "by_terrain",
        "layout",
        "_areas",
    )

    def __init__(
        self,
        rows: list[str] | tuple[str, ...],
        locations: dict[int, str],
        layout: tuple[tuple[str, bool], ...] = (),
    ) -> None:
        letters = "".join(rows)
        self.letters = letters
        self.terrain: tuple[str, ...] = tuple(LETTER_TERRAIN[ch] for ch in letters)
        self.buildable: tuple[bool, ...] = tuple(ch in BUILDABLE_LETTERS for ch in letters)
        self.locations: dict[int, str] = dict(locations)
        self.castles = frozenset(i for i, ch in enumerate(letters) if ch == "S")
        self.nomad_spaces = frozenset(i for i, ch in enumerate(letters) if ch == "N")
        # Location and castle hexes (and nomad spaces) for Workers and Merchants.
        self.special = frozenset(self.locations) | self.castles | self.nomad_spaces
        self.water = frozenset(i for i, ch in enumerate(letters) if ch == "W")
        self.mountain = frozenset(i for i, ch in enumerate(letters) if ch == "M")
        # Where a settlement scores for Fishermen, Miners and Workers, and the special hexes
        # next to each hex (Merchants): the cards count with set operations.
        near = NEIGHBOUR_SETS
        self.fishing = frozenset(
            i for i in range(SIZE) if i not in self.water and near[i] & self.water
        )
        self.mining = frozenset(i for i in range(SIZE) if near[i] & self.mountain)
        self.working = frozenset(i for i in range(SIZE) if near[i] & self.special)
        self.special_near: tuple[frozenset[int], ...] = tuple(n & self.special for n in near)
        by_terrain: dict[str, list[int]] = {}
        for i, name in enumerate(self.terrain):
            by_terrain.setdefault(name, []).append(i)
        self.by_terrain: dict[str, tuple[int, ...]] = {k: tuple(v) for k, v in by_terrain.items()}
        self.layout = layout
        self._areas: tuple[frozenset[int], ...] | None = None

    def rows(self) -> list[str]:
        return [self.letters[r * COLS : (r + 1) * COLS] for r in range(ROWS)]

    def hexes_of(self, terrain: str) -> tuple[int, ...]:
        return self.by_terrain.get(terrain, ())

    def terrain_areas(self) -> tuple[frozenset[int], ...]:
        """Maximal connected areas of one terrain (the 5 terrains, water, mountain)."""
        if self._areas is None:
            terrain, seen, found = self.terrain, set(), []
            for start in range(len(terrain)):
                kind = terrain[start]
                if start in seen or kind not in AREA_TERRAINS:
                    continue
                area, stack = {start}, [start]
                seen.add(start)
                while stack:
                    for n in NEIGHBOURS[stack.pop()]:
                        if n not in seen and terrain[n] == kind:
                            seen.add(n)
                            area.add(n)
                            stack.append(n)
                found.append(frozenset(area))
            self._areas = tuple(found)
        return self._areas


@lru_cache(maxsize=64)
def assemble(layout: tuple[tuple[str, bool], ...]) -> Board:
    """The board of 4 sections (top-left, top-right, bottom-left, bottom-right)."""
    if len(layout) != 4:
        raise ValueError("a board has exactly 4 sections")
    grid: list[list[tuple[str, ...]]] = [[()] * 2 for _ in range(2)]
    locations: dict[int, str] = {}
    for quadrant, (name, rotated) in enumerate(layout):
        top, left = (quadrant // 2) * SECTION_SIZE, (quadrant % 2) * SECTION_SIZE
        laid = section(name, rotated)
        grid[quadrant // 2][quadrant % 2] = laid.rows
        for r, c, tile in laid.locations:
            locations[index(top + r, left + c)] = tile
    rows = [grid[half][0][r] + grid[half][1][r] for half in range(2) for r in range(SECTION_SIZE)]
    return Board(rows, locations, layout)


def board_from_grid(rows: list[str], locations: dict[int, str] | None = None) -> Board:
    """A board from 20 strings of 20 letters (positions scored by ``manage.py score``).

    Location hexes (``L``) whose tile is unknown are named ``"location"``.
    """
    letters = "".join(rows)
    found = {i: "location" for i, ch in enumerate(letters) if ch == "L"}
    found.update(locations or {})
    return Board(rows, found)
