"""What each viewer sees (``seat_view``) and the move log in words (``describe_event``).

A seat sees everything public plus its own starting tile; a spectator sees only the
public. Nobody sees the supply's order or another seat's starting tile.
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import lru_cache
from typing import Any

from games.rules.kingdoms.board import COLUMNS, LINES, ROWS, piece_of
from games.rules.kingdoms.castles import parse_castle
from games.rules.kingdoms.epochs import final_outcome
from games.rules.kingdoms.scoring import score_lines
from games.rules.kingdoms.state import KingdomsState
from games.rules.kingdoms.tiles import KIND_CODE, kind_of


def cell_view(cell: str | None) -> dict[str, Any] | None:
    """A grid cell for the UI; ``code`` is the position-file spelling."""
    if cell is None:
        return None
    castle = parse_castle(cell)
    if castle is not None:
        return {"piece": "castle", "seat": castle[0], "rank": castle[1], "code": cell}
    kind, value = kind_of(cell)
    return {"piece": "tile", "tile": cell, "kind": kind, "value": value, "code": KIND_CODE[cell]}


def _lines(gains: list[list[int] | None]) -> list[dict[str, Any]]:
    return [
        {"line": line.kind, "index": line.index, "gains": None if g is None else list(g)}
        for line, g in zip(LINES, gains, strict=True)
    ]


def _line_values(state: KingdomsState) -> list[dict[str, Any]]:
    """What each row and column not scored yet this epoch would pay each seat if it were
    scored now (public: the board is open), so the page never re-implements scoring."""
    open_lines = tuple(n for n, gains in enumerate(state.line_gains) if gains is None)
    return [
        {"line": LINES[n].kind, "index": LINES[n].index, "gains": list(gains)}
        for n, gains in zip(
            open_lines, _open_line_gains(tuple(state.grid), open_lines, state.players), strict=True
        )
    ]


@lru_cache(maxsize=256)
def _open_line_gains(
    grid: tuple[str | None, ...], open_lines: tuple[int, ...], players: int
) -> tuple[tuple[int, ...], ...]:
    # The same for every seat's view of a position: the writer views it once per seat,
    # and a spectator's view comes right after. Kept by value, so never stale.
    pieces = [piece_of(cell) for cell in grid]
    return tuple(
        tuple(gains.get(seat, 0) for seat in range(players))
        for gains in score_lines(pieces, open_lines)
    )


def _phase(state: KingdomsState) -> str:
    if state.finished:
        return "finished"
    return "place_drawn_tile" if state.drawn is not None else "play"


def seat_view(state: KingdomsState, seat: int | None) -> dict[str, Any]:
    outcome = final_outcome(state)
    no_luck = state.options["no_luck"]
    return {
        "game": "kingdoms",
        "viewer": seat,
        "players": state.players,
        "options": dict(state.options),
        "phase": _phase(state),
        "finished": state.finished,
        "to_act": [] if state.turn is None else [state.turn],
        "turn": state.turn,
        "outcome": outcome.as_json() if outcome else None,
        "epoch": state.epoch,
        "epochs": state.max_epochs,
        "final_epoch": state.final_epoch,
        "start_player": state.start_player,
        "grid": [
            [cell_view(state.grid[r * COLUMNS + c]) for c in range(COLUMNS)] for r in range(ROWS)
        ],
        "gold": list(state.gold),
        "castles": [list(hand) for hand in state.castles],
        "starting_tiles": [
            {"held": tile is not None, "tile": tile if s == seat else None}
            for s, tile in enumerate(state.starting)
        ],
        "supply": {
            "count": len(state.supply),
            "face_up": list(state.supply) if no_luck else None,
        },
        "drawn_tile": (None if state.drawn is None else {"seat": state.turn, "tile": state.drawn}),
        "lines": _lines(state.line_gains),
        "previous_epoch_lines": (
            _lines(state.previous_line_gains) if state.previous_line_gains else None
        ),
        "epoch_gains": [list(g) for g in state.epoch_gains],
        "line_values": [] if state.finished else _line_values(state),
    }


# ---- the move log ---------------------------------------------------------------------

_SPECIAL_NAMES = {
    "mountain": "a Mountain",
    "dragon": "the Dragon",
    "gold_mine": "the Gold Mine",
    "wizard": "the Wizard",
}


def tile_name(tile: str) -> str:
    kind, value = kind_of(tile)
    return _SPECIAL_NAMES.get(kind) or f"{value:+d}"


def _where(space: Any) -> str:
    return f"row {int(space[0]) + 1}, column {int(space[1]) + 1}"


def _gains(gains: list[int], name: Any) -> str:
    parts = [f"{name(seat)} {gain:+d}" for seat, gain in enumerate(gains) if gain]
    return ", ".join(parts) if parts else "nobody gains or pays"


def describe_event(event_type: str, data: dict[str, Any], names: Mapping[int, str]) -> str:
    def name(seat: Any) -> str:
        # Seat keys may arrive as ints or, after JSON, as strings.
        return names.get(int(seat)) or names.get(str(seat)) or f"Seat {seat}"  # type: ignore[call-overload]

    who = name(data["seat"]) if "seat" in data else ""
    if event_type == "game_set_up":
        chosen = [
            k.replace("_", " ") for k, v in data.get("options", {}).items() if v and k != "wizard"
        ]
        extra = f" ({', '.join(chosen)})" if chosen else ""
        return f"A game of Kingdoms for {data['players']} players begins{extra}."
    if event_type == "epoch_started":
        reason = {"random": "chosen at random", "most_gold": "most gold"}.get(
            data.get("start_reason", ""), "tied for most gold, first clockwise"
        )
        text = f"Epoch {data['epoch']} begins; {name(data['start_player'])} starts ({reason})."
        if data.get("starting_tile"):
            text += f" Your secret starting tile is {tile_name(data['starting_tile'])}."
        return text
    if event_type == "castle_placed":
        return f"{who} placed a rank-{data['rank']} castle on {_where(data['space'])}."
    if event_type == "tile_drawn":
        return f"{who} drew {tile_name(data['tile'])}."
    if event_type == "tile_placed":
        return f"{who} placed {tile_name(data['tile'])} on {_where(data['space'])}."
    if event_type == "starting_tile_placed":
        return (
            f"{who} placed their starting tile, {tile_name(data['tile'])}, "
            f"on {_where(data['space'])}."
        )
    if event_type == "turn_passed":
        return f"{who} passed: nothing left to place."
    if event_type == "line_scored":
        return f"{data['line'].capitalize()} {data['index'] + 1} scored: {_gains(data['gains'], name)}."
    if event_type == "epoch_scored":
        return f"Epoch {data['epoch']} scored: {_gains(data['gains'], name)}."
    if event_type == "castles_returned":
        removed = sum(len(r) for r in data["removed"])
        return (
            f"Castles come off the board: {sum(data['returned'])} rank-1 castles go back "
            f"to their owners, {removed} castles leave the game."
        )
    if event_type == "game_finished":
        # The table's result line announces the end and the winner (a departure may
        # change the ranking); this line only gives the count.
        order = [s for group in data["ranking"] for s in group]
        return "Final gold: " + ", ".join(f"{name(s)} {data['scores'][s]}" for s in order) + "."
    return event_type.replace("_", " ").capitalize() + "."
