"""Undo within one's own turn, until something hidden or random comes out.

At a table with the ``undo`` option the fold keeps, for the turn in progress, a copy of
the state before each undoable action: a build of the mandatory action, or a location
tile that builds or moves a settlement. ``undo`` (command) → ``move_undone`` (event)
restores the last copy, so the log stays append-only and every replay and re-execution
gives the same state. Its consequences (a tile taken or lost, the end triggered, gold
earned) go with the action. Any other event clears the copies: a terrain card drawn or
revealed, a reshuffle, the turn's end, a nomad tile's action, a piece placed — from there
on what was done stands.
"""

from __future__ import annotations

from typing import Any

from games.rules.base import Event, require
from games.rules.kingdom_builder.tiles import BUILD, MOVE, TILES

UNDO = "undo"
MOVE_UNDONE = "move_undone"
UNDOABLE_TILES = frozenset(key for key, tile in TILES.items() if tile.effect in (BUILD, MOVE))
# What an undoable action may bring with it; none of it reveals or draws anything.
CONSEQUENCES = frozenset(
    {"tile_taken", "tile_loss_pending", "tile_lost", "game_end_triggered", "gold_earned"}
)


def starts_undoable_action(s: Any, event: Event) -> bool:
    if s.action is not None:  # a nomad tile's multi-step action
        return False
    tile = event.public.get("tile")
    if event.type == "settlement_built":
        return tile is None or tile in UNDOABLE_TILES
    return event.type == "settlement_moved" and tile in UNDOABLE_TILES


def fold(s: Any, event: Event, copy_state: Any) -> Any:
    """Before ``event`` is folded (undo tables only): keep, drop or restore the copies.
    Returns the state to fold ``event`` into (the restored one for ``move_undone``)."""
    if event.type == MOVE_UNDONE:
        restored = copy_state(s.undo[-1])
        restored.undo = s.undo[:-1]
        return restored
    if starts_undoable_action(s, event):
        checkpoint = copy_state(s)
        checkpoint.undo = []
        s.undo.append(checkpoint)
    elif event.type not in CONSEQUENCES and s.undo:
        s.undo = []
    return s


def can_undo(s: Any, seat: int) -> bool:
    return bool(s.undo) and seat == s.active and s.action is None and not s.finished


def decide_undo(s: Any, seat: int) -> Event:
    require(
        can_undo(s, seat),
        "nothing_to_undo",
        "There is nothing to undo: only your own builds and tile moves of this turn, "
        "before a terrain card is drawn, can be taken back.",
    )
    return Event(MOVE_UNDONE, {"seat": seat})
