"""The fold: how each recorded fact changes the state.

``apply`` never consults an RNG and never raises on a recorded event; it reads
coordinates as lists or tuples alike (events pass through JSON).
"""

from __future__ import annotations

from typing import Any

from games.rules.base import Event
from games.rules.kingdoms.board import ROWS, SPACES, index
from games.rules.kingdoms.castles import castle_code
from games.rules.kingdoms.state import KingdomsState

SERVER_ONLY = -1  # private[-1]: facts no viewer ever sees (the supply's order)


def line_number(kind: str, i: int) -> int:
    """Number into LINES of row ``i`` or column ``i``."""
    return i if kind == "row" else ROWS + i


def _space_index(space: Any) -> int:
    return index(int(space[0]), int(space[1]))


def _end_turn(state: KingdomsState, seat: int) -> None:
    # Play passes clockwise: to the next seat number.
    state.turn = (seat + 1) % state.players


def _credit(state: KingdomsState, gains: list[int]) -> None:
    for seat, gain in enumerate(gains):
        state.gold[seat] += gain
        state.epoch_gains[-1][seat] += gain


def _game_set_up(state: KingdomsState | None, data: dict[str, Any]) -> KingdomsState:
    players = int(data["players"])
    return KingdomsState(
        players=players,
        options=dict(data["options"]),
        castles=[list(hand) for hand in data["castles"]],
        gold=list(data["gold"]),
        starting=[None] * players,
    )


def _private(event: Event, seat: int) -> dict[str, Any]:
    # Seats are int keys; accept their JSON spelling too, should a store round-trip them.
    found = event.private.get(seat)
    if found is None:
        found = event.private.get(str(seat))  # type: ignore[call-overload]
    return found or {}


def _epoch_started(state: KingdomsState, event: Event) -> KingdomsState:
    data = event.public
    state.epoch = int(data["epoch"])
    state.grid = [None] * SPACES
    if "face_up_supply" in data:
        state.supply = list(data["face_up_supply"])
    else:
        state.supply = list(_private(event, SERVER_ONLY).get("supply", []))
    state.starting = [_private(event, seat).get("starting_tile") for seat in state.seats]
    state.start_player = state.turn = int(data["start_player"])
    state.drawn = None
    state.previous_line_gains = state.line_gains
    state.line_gains = [None] * len(state.line_gains)
    state.epoch_gains.append([0] * state.players)
    state.final_epoch = False
    return state


def _castle_placed(state: KingdomsState, data: dict[str, Any]) -> KingdomsState:
    seat, rank = int(data["seat"]), int(data["rank"])
    state.grid[_space_index(data["space"])] = castle_code(seat, rank)
    state.castles[seat][rank - 1] -= 1
    if state.options["last_castle"] and not any(state.castles[seat]):
        state.final_epoch = True
    _end_turn(state, seat)
    return state


def _tile_drawn(state: KingdomsState, data: dict[str, Any]) -> KingdomsState:
    tile = data["tile"]
    if tile in state.supply:
        state.supply.remove(tile)
    state.drawn = tile
    return state


def _tile_placed(state: KingdomsState, data: dict[str, Any]) -> KingdomsState:
    tile, seat = data["tile"], int(data["seat"])
    state.grid[_space_index(data["space"])] = tile
    if state.drawn == tile:
        state.drawn = None
    elif tile in state.supply:  # No Luck: chosen from the face-up supply
        state.supply.remove(tile)
    _end_turn(state, seat)
    return state


def _starting_tile_placed(state: KingdomsState, data: dict[str, Any]) -> KingdomsState:
    seat = int(data["seat"])
    state.grid[_space_index(data["space"])] = data["tile"]
    state.starting[seat] = None
    _end_turn(state, seat)
    return state


def _turn_passed(state: KingdomsState, data: dict[str, Any]) -> KingdomsState:
    _end_turn(state, int(data["seat"]))
    return state


def _line_scored(state: KingdomsState, data: dict[str, Any]) -> KingdomsState:
    gains = [int(g) for g in data["gains"]]
    state.line_gains[line_number(data["line"], int(data["index"]))] = gains
    _credit(state, gains)
    return state


def _epoch_scored(state: KingdomsState, data: dict[str, Any]) -> KingdomsState:
    for line in data["lines"]:
        _line_scored(state, line)
    return state


def _castles_returned(state: KingdomsState, data: dict[str, Any]) -> KingdomsState:
    state.castles = [list(hand) for hand in data["castles"]]
    state.grid = [
        None if cell is not None and cell.startswith("castle:") else cell for cell in state.grid
    ]
    return state


def _game_finished(state: KingdomsState, data: dict[str, Any]) -> KingdomsState:
    state.finished = True
    state.turn = None
    state.drawn = None
    return state


_BY_TYPE = {
    "castle_placed": _castle_placed,
    "tile_drawn": _tile_drawn,
    "tile_placed": _tile_placed,
    "starting_tile_placed": _starting_tile_placed,
    "turn_passed": _turn_passed,
    "line_scored": _line_scored,
    "epoch_scored": _epoch_scored,
    "castles_returned": _castles_returned,
    "game_finished": _game_finished,
}
EVENT_TYPES = ("game_set_up", "epoch_started", *_BY_TYPE)


def apply(state: KingdomsState | None, event: Event) -> KingdomsState:
    """Fold one recorded event into ``state`` (mutated and returned)."""
    if event.type == "game_set_up":
        return _game_set_up(state, event.public)
    assert state is not None, "the first event of a game is game_set_up"
    if event.type == "epoch_started":
        return _epoch_started(state, event)
    handler = _BY_TYPE.get(event.type)
    # Unknown event types (e.g. service-level facts) leave the rules state unchanged.
    return handler(state, event.public) if handler else state
