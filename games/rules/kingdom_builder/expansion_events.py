"""The fold of the Nomads and Crossroads events (``state.evolve`` hands them over here).

Like ``state.evolve`` these trust recorded events: they apply them and check no rule.
Also home of the two small fold helpers both modules share.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from games.rules.kingdom_builder.board import COLS
from games.rules.kingdom_builder.placement import EMPTY, WALL, WARRIOR, guarded_by

State = Any  # games.rules.kingdom_builder.state.State (kept loose to avoid a cycle)
Data = dict[str, Any]

QUARRY_WALLS = 2  # Quarry places 1 or 2 stone walls
DONATION_BUILDS = 3
RESETTLEMENT_STEPS = 4


def hex_at(pair: Any) -> int:
    """A recorded ``[row, col]`` (list or tuple) as a flat index."""
    return int(pair[0]) * COLS + int(pair[1])


def mark_used(s: State, seat: int, kind: str | None) -> None:
    """One usable location tile of ``kind`` has been used this turn."""
    if kind is None:
        return
    for tile in s.held[seat]:
        if tile["tile"] == kind and not tile["fresh"] and not tile["used"]:
            tile["used"] = True
            return


def _drop_nomad_tile(s: State, seat: int, data: Data) -> None:
    space = hex_at(data["space"])
    for tile in s.nomad_held[seat]:
        if tile["tile"] == data["tile"] and tile["space"] == space:
            s.nomad_held[seat].remove(tile)
            return


# ---- Nomads --------------------------------------------------------------------------------
def nomad_tile_taken(s: State, seat: int, data: Data) -> None:
    space = hex_at(data["space"])
    s.nomad_tiles[space] = None
    s.nomad_held[seat].append({"tile": data["tile"], "space": space, "fresh": True})


def nomad_tile_used(s: State, seat: int, data: Data) -> None:
    """The tile is spent; a multi-step tile opens its action."""
    _drop_nomad_tile(s, seat, data)
    key = data["tile"]
    if key.startswith("donation_"):
        s.action = {
            "kind": "donation",
            "tile": key,
            "terrain": key.removeprefix("donation_"),
            "left": DONATION_BUILDS,
        }
    elif key == "resettlement":
        s.action = {"kind": "resettlement", "tile": key, "left": RESETTLEMENT_STEPS}
    elif key == "sword":
        s.action = {"kind": "sword", "tile": key, "victims": list(data.get("victims", []))}
    elif key == "nomad_outpost":
        s.outpost_armed = True


def nomad_tile_expired(s: State, seat: int, data: Data) -> None:
    _drop_nomad_tile(s, seat, data)


def gold_earned(s: State, seat: int, data: Data) -> None:
    gold, source = int(data["gold"]), data["source"]
    s.gold[seat] += gold
    s.earned[seat][source] = s.earned[seat].get(source, 0) + gold


def wall_placed(s: State, seat: int, data: Data) -> None:
    h = hex_at(data["hex"])
    s.owner[h] = WALL
    s.walls.add(h)
    s.walls_left -= 1
    if data.get("wall", 1) == 1:
        mark_used(s, seat, data.get("tile"))
        s.action = {"kind": "quarry", "tile": "quarry", "left": QUARRY_WALLS - 1}
    elif s.action is not None:
        s.action["left"] = 0


def settlement_removed(s: State, seat: int, data: Data) -> None:
    """Sword: the victim's settlement goes back to its supply."""
    h, victim = hex_at(data["hex"]), data["victim"]
    s.owner[h] = EMPTY
    s.settlements[victim].discard(h)
    s.supply[victim] += 1
    if s.action is not None and s.action.get("victims"):
        s.action["victims"].pop(0)


def action_finished(s: State, seat: int, data: Data) -> None:
    s.action = None


# ---- Crossroads ----------------------------------------------------------------------------
def city_hall_built(s: State, seat: int, data: Data) -> None:
    hexes = [hex_at(pair) for pair in data["hexes"]]
    for h in hexes:
        s.owner[h] = seat
    s.city_hall[seat] = hexes
    mark_used(s, seat, data.get("tile"))


def piece_placed(s: State, seat: int, data: Data) -> None:
    h, piece = hex_at(data["hex"]), data["piece"]
    if piece == "warrior":
        s.owner[h] = WARRIOR
        s.warriors[seat].append(h)
        s.guarded = guarded_by(s.warriors)
    else:
        s.owner[h] = seat
        getattr(s, piece)[seat] = h
    mark_used(s, seat, data.get("tile"))


def piece_moved(s: State, seat: int, data: Data) -> None:
    source, to, piece = hex_at(data["from"]), hex_at(data["to"]), data["piece"]
    s.owner[source] = EMPTY
    s.owner[to] = seat
    getattr(s, piece)[seat] = to
    mark_used(s, seat, data.get("tile"))


def piece_taken_back(s: State, seat: int, data: Data) -> None:
    h, piece = hex_at(data["hex"]), data["piece"]
    s.owner[h] = EMPTY
    if piece == "warrior":
        if h in s.warriors[seat]:
            s.warriors[seat].remove(h)
        s.guarded = guarded_by(s.warriors)
    else:
        getattr(s, piece)[seat] = -1
    mark_used(s, seat, data.get("tile"))


EXPANSION_EVENTS: dict[str, Callable[[State, int, Data], None]] = {
    "nomad_tile_taken": nomad_tile_taken,
    "nomad_tile_used": nomad_tile_used,
    "nomad_tile_expired": nomad_tile_expired,
    "gold_earned": gold_earned,
    "wall_placed": wall_placed,
    "settlement_removed": settlement_removed,
    "action_finished": action_finished,
    "city_hall_built": city_hall_built,
    "piece_placed": piece_placed,
    "piece_moved": piece_moved,
    "piece_taken_back": piece_taken_back,
}
