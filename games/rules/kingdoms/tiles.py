"""The tiles: resources, hazards, Mountains, Dragon, Gold Mine and Wizard.

Every tile has a stable id that says what it is (``"+3a"``, ``"-2"``, ``"mountain_b"``,
``"dragon"``). An id only ever leaves the engine once its tile is face up (or to the one
player holding it as a starting tile), so a self-describing id reveals nothing.

A tile's *kind code* is the spelling used by position files for ``manage.py score``:
``"+3"``, ``"-2"``, ``"mountain"``, ``"dragon"``, ``"gold_mine"``, ``"wizard"``.
"""

from __future__ import annotations

RESOURCE = "resource"
HAZARD = "hazard"
MOUNTAIN = "mountain"
DRAGON = "dragon"
GOLD_MINE = "gold_mine"
WIZARD = "wizard"


def _full_set() -> tuple[str, ...]:
    # Resources +1..+6 two of each, hazards -1..-6 one of each, 2 Mountains, Dragon,
    # Gold Mine, Wizard: the 23 tiles of the 2011 edition, in a fixed canonical order.
    resources = [f"+{v}{copy}" for v in range(1, 7) for copy in "ab"]
    hazards = [f"-{v}" for v in range(1, 7)]
    return (*resources, *hazards, "mountain_a", "mountain_b", DRAGON, GOLD_MINE, WIZARD)


ALL_TILES: tuple[str, ...] = _full_set()
TILES_WITHOUT_WIZARD: tuple[str, ...] = tuple(t for t in ALL_TILES if t != WIZARD)


def tile_set(wizard: bool) -> tuple[str, ...]:
    """The tiles in play: 23 with the Wizard, the 22 of the 2002 edition without."""
    return ALL_TILES if wizard else TILES_WITHOUT_WIZARD


def _kind_code(tile: str) -> str:
    if tile[0] in "+-":
        return tile[:2]
    return MOUNTAIN if tile.startswith(MOUNTAIN) else tile


KIND_CODE: dict[str, str] = {tile: _kind_code(tile) for tile in ALL_TILES}


def kind_of(code: str) -> tuple[str, int | None]:
    """(kind, value) of a tile id or kind code: ``"+3a"`` -> ``("resource", 3)``."""
    if code[:1] == "+":
        return RESOURCE, int(code[1])
    if code[:1] == "-":
        return HAZARD, -int(code[1])
    return (MOUNTAIN if code.startswith(MOUNTAIN) else code), None


def is_tile(cell: str) -> bool:
    """Whether a grid cell holds a tile (anything that is not a castle)."""
    return cell in KIND_CODE
