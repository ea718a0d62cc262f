"""Every location tile of the base game and both expansions: what it does, its name.

Effects: ``build`` (one settlement from the supply onto ``to``), ``move`` (one settlement
``from`` → ``to``), ``walls`` (Quarry: a stone wall onto ``to``, then maybe a second),
``city_hall`` (the player's city hall centred on ``to``), ``piece`` (place a warrior,
wagon or ship on ``to``, move it ``from`` → ``to``, or take it back), ``passive``
(Crossroads: nothing to do; it acts at the end of the turn).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from games.rules.kingdom_builder import crossroads_locations as cl
from games.rules.kingdom_builder import locations as base
from games.rules.kingdom_builder import nomad_locations as nl

State = Any  # games.rules.kingdom_builder.state.State (kept loose to avoid a cycle)

BUILD = "build"
MOVE = "move"
WALLS = "walls"
CITY_HALL = "city_hall"
PIECE = "piece"
PASSIVE = "passive"


@dataclass(frozen=True)
class Tile:
    """A location tile: its key, its effect, its targets, and for pieces which piece."""

    key: str
    name: str
    effect: str
    targets: Callable[[State, int], Any]
    piece: str | None = None


TILES: dict[str, Tile] = {
    tile.key: tile
    for tile in (
        # base game
        Tile("oracle", "Oracle", BUILD, base.oracle),
        Tile("farm", "Farm", BUILD, base.farm),
        Tile("oasis", "Oasis", BUILD, base.oasis),
        Tile("tower", "Tower", BUILD, base.tower),
        Tile("tavern", "Tavern", BUILD, base.tavern),
        Tile("barn", "Barn", MOVE, base.barn),
        Tile("harbor", "Harbor", MOVE, base.harbor),
        Tile("paddock", "Paddock", MOVE, base.paddock),
        # Nomads
        Tile("quarry", "Quarry", WALLS, nl.quarry),
        Tile("caravan", "Caravan", MOVE, nl.caravan),
        Tile("village", "Village", BUILD, nl.village),
        Tile("garden", "Garden", BUILD, nl.garden),
        # Crossroads
        Tile("foresters_lodge", "Forester's Lodge", BUILD, cl.foresters_lodge),
        Tile("monastery", "Monastery", BUILD, cl.monastery),
        Tile("outpost", "Outpost", BUILD, cl.outpost),
        Tile("city_hall", "City Hall", CITY_HALL, cl.city_hall),
        Tile("barracks", "Barracks", PIECE, cl.barracks, "warrior"),
        Tile("wagon", "Wagon", PIECE, cl.wagon, "wagon"),
        Tile("lighthouse", "Lighthouse", PIECE, cl.lighthouse, "ship"),
        Tile("crossroads", "Crossroads", PASSIVE, cl.crossroads),
    )
}

TILE_NAMES: dict[str, str] = {key: tile.name for key, tile in TILES.items()}
# Tile effects that put something from ``to`` only (no ``from``).
PLACING = (BUILD, WALLS, CITY_HALL)
