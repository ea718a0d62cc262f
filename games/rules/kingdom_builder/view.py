"""What each viewer sees of the state, and the move log in words.

A seat sees everything public plus its own hand; never another hand nor the draw pile's
order (only its size). Spectators (seat None) see only the public part. The expansions'
parts are always present (empty or null when not in play), so the page needs no switch.
"""

from __future__ import annotations

from typing import Any

from games.rules.base import Outcome
from games.rules.kingdom_builder import turn
from games.rules.kingdom_builder.board import coords
from games.rules.kingdom_builder.cards import CARD_NAMES
from games.rules.kingdom_builder.crossroads_locations import WARRIORS_EACH
from games.rules.kingdom_builder.nomads import NOMAD_TILE_NAMES
from games.rules.kingdom_builder.state import State
from games.rules.kingdom_builder.tasks import TASK_NAMES, TASKS
from games.rules.kingdom_builder.terrain import TERRAIN_NAMES
from games.rules.kingdom_builder.tiles import TILE_NAMES

NAMES = {**TILE_NAMES, **NOMAD_TILE_NAMES}


def section_name(key: str) -> str:
    """A board section by its location tiles' printed names: "Monastery and Wagon"."""
    return " and ".join(NAMES.get(part, part.replace("_", " ")) for part in key.split("_and_"))


def _hex_or_none(h: int) -> list[int] | None:
    return coords(h) if h >= 0 else None


def _action(s: State) -> dict[str, Any] | None:
    """The multi-step action in progress, as the page shows it."""
    if s.action is None:
        return None
    action = {"kind": s.action["kind"], "tile": s.action["tile"]}
    if "left" in s.action:
        action["left"] = s.action["left"]
    if "terrain" in s.action:
        action["terrain"] = s.action["terrain"]
    if s.action.get("victims"):
        action["victim"] = s.action["victims"][0]
        action["victims"] = list(s.action["victims"])
    return action


def _mandatory(s: State) -> str:
    if s.mandatory_done():
        return "done"
    return "in_progress" if s.placed else "not_started"


def view(s: State, seat: int | None) -> dict[str, Any]:
    board = s.board
    you = seat if isinstance(seat, int) and 0 <= seat < s.players else None
    active = None if s.finished else s.active
    scores = turn.final_scores(s)
    return {
        "ruleset": "kingdom-builder",
        "phase": s.phase,
        "finished": s.finished,
        "to_act": [] if s.finished else [s.active],
        "outcome": Outcome.from_json(s.outcome).as_json() if s.outcome else None,
        "you": you,
        "options": s.options,
        "board": {
            "sections": [{"name": n, "rotated": r} for n, r in s.layout],
            "grid": board.rows(),
            "locations": [
                {"hex": coords(i), "tile": kind, "tiles_left": s.tiles_left.get(i, 0)}
                for i, kind in sorted(board.locations.items())
            ],
            "castles": [coords(i) for i in sorted(board.castles)],
            "nomad_spaces": [
                {"hex": coords(i), "tile": tile} for i, tile in sorted(s.nomad_tiles.items())
            ],
            "walls": [coords(i) for i in sorted(s.walls)],
            "walls_left": s.walls_left,
            "tasks": [{"task": task, "gold": TASKS[task][0]} for task in s.tasks],
            "guarded": [coords(i) for i in sorted(s.guarded)],
        },
        "cards": list(s.cards),
        "start_player": s.start_player,
        "active": active,
        "round": max(s.turns) if s.turns else 0,
        "end_triggered": s.end_triggered,
        "players": [
            {
                "seat": p,
                "supply": s.supply[p],
                "settlements": [coords(i) for i in sorted(s.settlements[p])],
                "tiles": [
                    {
                        "tile": t["tile"],
                        "location": coords(t["location"]),
                        "fresh": t["fresh"],
                        "used": t["used"],
                    }
                    for t in s.held[p]
                ],
                "taken_from": [coords(i) for i in sorted(s.taken_from[p])],
                "hand_size": len(s.hands[p]),
                "turns": s.turns[p],
                "score": scores[p],  # what the board would score now (public)
                "gold": dict(s.earned[p]),  # gold earned during play, by source
                "nomad_tiles": [
                    {"tile": t["tile"], "space": coords(t["space"]), "fresh": t["fresh"]}
                    for t in s.nomad_held[p]
                ],
                "warriors": [coords(i) for i in s.warriors[p]],
                "warriors_left": WARRIORS_EACH - len(s.warriors[p]),
                "wagon": _hex_or_none(s.wagon[p]),
                "ship": _hex_or_none(s.ship[p]),
                "city_hall": [coords(i) for i in s.city_hall[p]] or None,
            }
            for p in range(s.players)
        ],
        "terrain": {
            "card": s.card,
            "draw_pile": len(s.draw_pile),
            "discard_top": s.discard[-1] if s.discard else None,
            "discard_size": len(s.discard),
            "removed": list(s.removed),
            "face_up": list(s.face_up),
        },
        "turn": None
        if s.finished
        else {
            "seat": s.active,
            "terrain": s.card,
            "placed": s.placed,
            "mandatory": _mandatory(s),
            "tiles_allowed": turn.tiles_allowed_now(s),
            "pending_discard": [
                {"tile": p["tile"], "location": coords(p["location"])} for p in s.pending
            ],
            "action": _action(s),
            "outpost_armed": s.outpost_armed,
        },
        "hand": list(s.hands[you]) if you is not None else None,
    }


def hex_label(row: int, col: int) -> str:
    """A hex as the board's labels name it: column letter A-T, row number 1-20 ("F8")."""
    return f"{chr(ord('A') + col)}{row + 1}"


def _at(data: dict[str, Any], key: str) -> str:
    value = data.get(key)
    if isinstance(value, list) and len(value) == 2:
        return hex_label(int(value[0]), int(value[1]))
    return "?"


def describe_event(kind: str, data: dict[str, Any], names: dict[int, str]) -> str:
    """One line of the move log, from the data the viewer sees."""
    seat = data.get("seat")
    who = names.get(seat, f"Player {seat}") if isinstance(seat, int) else "Someone"
    terrain = TERRAIN_NAMES.get(data.get("terrain", ""), str(data.get("terrain")))
    tile = NAMES.get(data.get("tile") or "", str(data.get("tile")))
    if kind == "game_set_up":
        sections = ", ".join(
            f"{section_name(n)}{' (rotated)' if r else ''}" for n, r in data.get("layout", [])
        )
        cards = ", ".join(CARD_NAMES.get(c, c) for c in data.get("cards", []))
        tasks = ", ".join(TASK_NAMES.get(t, t) for t in data.get("tasks", []))
        return f"The board is laid: {sections}. Cards in play: {cards}." + (
            f" Tasks: {tasks}." if tasks else ""
        )
    if kind == "turn_started":
        return f"{who} begins turn {data.get('turn')}."
    if kind == "terrain_card_revealed":
        source = {
            "hand": "plays",
            "face_up": "takes the face-up",
            "draw_pile": "draws and plays",
            "choice": "chooses",
        }.get(data.get("source", ""), "plays")
        if data.get("no_empty_hex"):
            return f"{who} {source} {terrain}: no empty hex of it is left, so no Oracle or Barn."
        return f"{who} {source} {terrain}."
    if kind == "terrain_card_drawn":
        if data.get("to") == "face_up":
            return f"A {terrain} card is laid face up."
        extra = " (an extra card, for the Crossroads tile)" if data.get("extra") else ""
        if "terrain" in data:
            return f"{who} draws a {terrain} card{extra}."
        return f"{who} draws a card{extra}."
    if kind == "terrain_deck_reshuffled":
        return f"The discards are reshuffled into a new draw pile of {data.get('cards')} cards."
    if kind == "terrain_card_discarded":
        return f"{who} discards {terrain}."
    if kind == "terrain_card_removed":
        return f"No empty {terrain} hex is left: the card is removed from the game."
    if kind == "terrain_exhausted":
        return f"No empty {terrain} hex is left: {who} chooses another terrain."
    if kind == "mandatory_action_cut_short":
        return f"{who} cannot build the remaining {data.get('builds_skipped')} settlements."
    if kind == "settlement_built":
        how = f" with {tile}" if data.get("tile") else ""
        return f"{who} builds on {terrain} at {_at(data, 'hex')}{how}."
    if kind == "settlement_moved":
        return (
            f"{who} moves a settlement from {_at(data, 'from')} to {_at(data, 'to')} with {tile}."
        )
    if kind == "tile_taken":
        return f"{who} takes a {tile} tile at {_at(data, 'location')}."
    if kind == "tile_loss_pending":
        return f"{who} must give up one of two {tile} tiles."
    if kind == "tile_lost":
        return f"{who} loses the {tile} tile of {_at(data, 'location')}."
    if kind == "game_end_triggered":
        return f"{who} has placed the last settlement: the round is finished, then the game ends."
    if kind == "turn_ended":
        return f"{who} ends the turn."
    if kind == "move_undone":
        return f"{who} took back their last move."
    line = _describe_expansion(kind, data, who, names, tile)
    if line:
        return line
    if kind == "game_finished":
        scores = data.get("scores", {})
        parts = ", ".join(
            f"{names.get(int(s), f'Player {s}')} {v}"
            for s, v in sorted(scores.items(), key=lambda item: -item[1])
        )
        # The table's result line announces the end and the winner.
        return f"Final scoring: {parts} gold."
    return kind.replace("_", " ").capitalize() + "."


def _describe_expansion(
    kind: str, data: dict[str, Any], who: str, names: dict[int, str], tile: str
) -> str | None:
    """The Nomads and Crossroads events in words."""
    piece = data.get("piece", "piece")
    if kind == "nomad_tile_taken":
        return f"{who} takes the {tile} nomad tile at {_at(data, 'space')}."
    if kind == "nomad_tile_used":
        return f"{who} uses the {tile} nomad tile."
    if kind == "nomad_tile_expired":
        return f"{who}'s {tile} nomad tile is gone unused."
    if kind == "gold_earned":
        source = data.get("source", "")
        reason = CARD_NAMES.get(source, source.replace("_", " ").capitalize())
        return f"{who} earns {data.get('gold')} gold ({reason})."
    if kind == "wall_placed":
        return f"{who} places a stone wall at {_at(data, 'hex')} with {tile}."
    if kind == "settlement_removed":
        victim = data.get("victim")
        whose = names.get(victim, f"Player {victim}") if isinstance(victim, int) else "someone"
        return f"{who}'s Sword removes {whose}'s settlement at {_at(data, 'hex')}."
    if kind == "action_finished":
        return f"{who} is done with {tile}."
    if kind == "city_hall_built":
        return f"{who} builds a city hall around {_at(data, 'hex')}."
    if kind == "piece_placed":
        return f"{who} places a {piece} at {_at(data, 'hex')} with {tile}."
    if kind == "piece_moved":
        return f"{who} moves the {piece} from {_at(data, 'from')} to {_at(data, 'to')}."
    if kind == "piece_taken_back":
        return f"{who} takes the {piece} at {_at(data, 'hex')} back."
    return None
