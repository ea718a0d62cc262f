"""Location tiles in use: the commands each tile offers and what using one does.

Every tile of every kind goes through ``use_tile`` (``{"type": "use_tile", "tile", "to"}``
or with ``"from"`` for a move); Barracks, Wagon and Lighthouse also take a piece back
(``{"type": "take_back_piece", "tile", "hex"}``). A tile is used once per turn, entirely
before or after the mandatory action, never the turn it was taken.
"""

from __future__ import annotations

from typing import Any

from games.rules.base import IllegalCommand, require
from games.rules.kingdom_builder.arrival import after_arrival, after_build, after_departure
from games.rules.kingdom_builder.board import coords
from games.rules.kingdom_builder.checks import fields, parse_hex, require_extra_action_time
from games.rules.kingdom_builder.crossroads_locations import city_hall_hexes
from games.rules.kingdom_builder.emitter import Emitter
from games.rules.kingdom_builder.nomad_locations import quarry
from games.rules.kingdom_builder.tiles import (
    BUILD,
    CITY_HALL,
    MOVE,
    PASSIVE,
    PIECE,
    PLACING,
    TILE_NAMES,
    TILES,
    WALLS,
)

State = Any  # games.rules.kingdom_builder.state.State
Command = dict[str, Any]


def usable_tiles(s: State, seat: int) -> list[str]:
    """Kinds of tile the player may use now: held, not taken this turn, not used yet."""
    return sorted(
        {
            t["tile"]
            for t in s.held[seat]
            if not t["fresh"] and not t["used"] and TILES[t["tile"]].effect != PASSIVE
        }
    )


def tile_commands(s: State, seat: int, key: str) -> list[Command]:
    """Every command that uses tile ``key`` now (its timing already known to allow it)."""
    tile = TILES[key]
    if tile.effect == PASSIVE or (tile.effect == BUILD and s.supply[seat] <= 0):
        return []
    found = tile.targets(s, seat)
    if tile.effect in PLACING:
        return [{"type": "use_tile", "tile": key, "to": coords(h)} for h in found]
    if tile.effect == MOVE:
        return _moves(key, found)
    commands = [{"type": "use_tile", "tile": key, "to": coords(h)} for h in found["place"]]
    commands += _moves(key, found["move"])
    commands += [
        {"type": "take_back_piece", "tile": key, "hex": coords(h)} for h in found["take_back"]
    ]
    return commands


def _moves(key: str, moves: dict[int, list[int]]) -> list[Command]:
    return [
        {"type": "use_tile", "tile": key, "from": coords(source), "to": coords(h)}
        for source, targets in moves.items()
        for h in targets
    ]


def _tile(command: Command) -> Any:
    key = command.get("tile")
    if not (isinstance(key, str) and key in TILES):
        raise IllegalCommand("unknown_tile", f"'tile' must be one of: {', '.join(TILES)}.")
    return TILES[key]


def _require_usable(s: State, seat: int, key: str) -> None:
    require_extra_action_time(s)
    held = [t for t in s.held[seat] if t["tile"] == key]
    name = TILE_NAMES[key]
    require(bool(held), "tile_not_held", f"You hold no {name} tile.")
    require(
        any(not t["fresh"] for t in held),
        "tile_taken_this_turn",
        f"You took your {name} tile this turn; you may use it from your next turn.",
    )
    require(key in usable_tiles(s, seat), "tile_already_used", f"You used {name} this turn.")


def use_tile(em: Emitter, seat: int, command: Command) -> None:
    s = em.state
    tile = _tile(command)
    key, name = tile.key, tile.name
    if tile.effect == PASSIVE:
        raise IllegalCommand(
            "passive_tile", f"{name} acts by itself: an extra terrain card at your turn's end."
        )
    if tile.effect == MOVE or (tile.effect == PIECE and "from" in command):
        fields(command, {"type", "tile", "from", "to"})
        source = parse_hex(command, "from")
    else:
        fields(command, {"type", "tile", "to"})
        source = -1
    to = parse_hex(command, "to")
    _require_usable(s, seat, key)
    require(
        not (key in ("oracle", "barn") and s.card_gone_at_start),
        "terrain_gone_at_start",
        f"No empty hex of your card's terrain was left as your turn began: no {name} this turn.",
    )
    found = tile.targets(s, seat)
    if tile.effect == BUILD:
        require(s.supply[seat] > 0, "no_settlements_left", "You have no settlement left.")
        require(to in found, "illegal_target", f"{name} cannot build there.")
        em.emit(
            "settlement_built",
            {"seat": seat, "hex": coords(to), "terrain": s.board.terrain[to], "tile": key},
        )
        after_build(em, seat, to)
    elif tile.effect == MOVE:
        require(
            source in s.settlements[seat], "not_your_settlement", "You have no settlement there."
        )
        require(to in found.get(source, ()), "illegal_target", f"{name} cannot move it there.")
        em.emit(
            "settlement_moved",
            {"seat": seat, "from": coords(source), "to": coords(to), "tile": key},
        )
        after_arrival(em, seat, (to,))
        after_departure(em, seat, source)
    elif tile.effect == WALLS:
        require(s.walls_left > 0, "no_walls_left", "All 25 stone walls are on the board.")
        require(to in found, "illegal_target", f"{name} cannot place a wall there.")
        em.emit("wall_placed", {"seat": seat, "hex": coords(to), "tile": key, "wall": 1})
        if not quarry(em.state, seat):
            em.emit("action_finished", {"seat": seat, "tile": key})
    elif tile.effect == CITY_HALL:
        require(not s.city_hall[seat], "city_hall_built", "Your city hall is already built.")
        require(to in found, "illegal_target", "Your city hall cannot stand there.")
        hexes = city_hall_hexes(to)
        em.emit(
            "city_hall_built",
            {"seat": seat, "hex": coords(to), "hexes": [coords(h) for h in hexes], "tile": key},
        )
        after_arrival(em, seat, hexes)
    else:
        _use_piece(em, seat, tile, source, to, found)


def _use_piece(em: Emitter, seat: int, tile: Any, source: int, to: int, found: Any) -> None:
    piece, name = tile.piece, tile.name
    if source < 0:
        require(to in found["place"], "illegal_target", f"{name} cannot place your {piece} there.")
        em.emit("piece_placed", {"seat": seat, "piece": piece, "hex": coords(to), "tile": tile.key})
        return
    require(source in found["move"], "not_your_piece", f"Your {piece} is not there.")
    require(to in found["move"][source], "illegal_target", f"Your {piece} cannot go there.")
    em.emit(
        "piece_moved",
        {"seat": seat, "piece": piece, "from": coords(source), "to": coords(to), "tile": tile.key},
    )


def take_back_piece(em: Emitter, seat: int, command: Command) -> None:
    s = em.state
    tile = _tile(command)
    require(
        tile.effect == PIECE,
        "no_piece",
        "Only Barracks, Wagon and Lighthouse take a piece back.",
    )
    fields(command, {"type", "tile", "hex"})
    hex_ = parse_hex(command, "hex")
    _require_usable(s, seat, tile.key)
    require(
        hex_ in tile.targets(s, seat)["take_back"],
        "not_your_piece",
        f"You have no {tile.piece} there.",
    )
    em.emit(
        "piece_taken_back",
        {"seat": seat, "piece": tile.piece, "hex": coords(hex_), "tile": tile.key},
    )


def any_tile_usable(s: State, seat: int) -> bool:
    return any(tile_commands(s, seat, key) for key in usable_tiles(s, seat))
