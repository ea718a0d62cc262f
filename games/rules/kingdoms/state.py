"""The state of a game of Kingdoms: plain lists and ints, so that copying and JSON
snapshots are cheap and exact."""

from __future__ import annotations

from dataclasses import dataclass, field, fields
from typing import Any

from games.rules.kingdoms.board import LINES, SPACES


@dataclass(slots=True)
class KingdomsState:
    players: int
    options: dict[str, Any]
    epoch: int = 0
    # Row-major, 30 cells: None (empty), a tile id, or a castle code "castle:SEAT:RANK".
    grid: list[str | None] = field(default_factory=lambda: [None] * SPACES)
    # Castles in hand per seat: counts of rank 1, 2, 3, 4.
    castles: list[list[int]] = field(default_factory=list)
    gold: list[int] = field(default_factory=list)
    # Each seat's secret starting tile while unplaced (None once placed / in No Luck).
    starting: list[str | None] = field(default_factory=list)
    # The supply: face down with the top first (secret order), or face up in No Luck.
    supply: list[str] = field(default_factory=list)
    start_player: int = 0
    turn: int | None = None
    # A tile drawn by ``turn`` that must be placed next.
    drawn: str | None = None
    # Gains per seat of each line (numbers into LINES) scored this epoch, else None.
    line_gains: list[list[int] | None] = field(default_factory=lambda: [None] * len(LINES))
    previous_line_gains: list[list[int] | None] = field(default_factory=list)
    # Gains per seat, one list per epoch begun.
    epoch_gains: list[list[int]] = field(default_factory=list)
    # Down to the Last Castle: a player placed their last castle during this epoch.
    final_epoch: bool = False
    finished: bool = False

    @property
    def seats(self) -> range:
        return range(self.players)

    @property
    def max_epochs(self) -> int | None:
        return None if self.options["last_castle"] else 3


def _copy_value(value: Any) -> Any:
    if isinstance(value, list):
        return [_copy_value(v) for v in value]
    if isinstance(value, dict):
        return {k: _copy_value(v) for k, v in value.items()}
    return value


_FIELDS = tuple(f.name for f in fields(KingdomsState))


def copy_state(state: KingdomsState) -> KingdomsState:
    """An independent copy, field by field: the search copies a world for every command
    it tries, so this is spelt out rather than walked like ``dump_state``."""
    return KingdomsState(
        players=state.players,
        options=dict(state.options),
        epoch=state.epoch,
        grid=list(state.grid),
        castles=[list(hand) for hand in state.castles],
        gold=list(state.gold),
        starting=list(state.starting),
        supply=list(state.supply),
        start_player=state.start_player,
        turn=state.turn,
        drawn=state.drawn,
        line_gains=[None if g is None else list(g) for g in state.line_gains],
        previous_line_gains=[None if g is None else list(g) for g in state.previous_line_gains],
        epoch_gains=[list(g) for g in state.epoch_gains],
        final_epoch=state.final_epoch,
        finished=state.finished,
    )


def dump_state(state: KingdomsState) -> dict[str, Any]:
    return {name: _copy_value(getattr(state, name)) for name in _FIELDS}


def load_state(data: dict[str, Any]) -> KingdomsState:
    return KingdomsState(**{name: _copy_value(data[name]) for name in _FIELDS})
