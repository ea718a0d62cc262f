"""A turn: the mandatory action, location tiles, tile taking and losing, the end of game.

``decide`` validates one command, emits its events into a scratch copy (``Emitter``) and
then lets the game run on by itself (``settle``) until a player has a real choice: the
no-terrain rule, the end of a turn once nothing is left to do, the next turn's card.
"""

from __future__ import annotations

import random
from typing import Any

from games.rules.base import Event, IllegalCommand, command_type, rank_by_score, require
from games.rules.kingdom_builder import deck
from games.rules.kingdom_builder.board import COLS, NEIGHBOURS, ROWS, coords
from games.rules.kingdom_builder.emitter import Emitter
from games.rules.kingdom_builder.locations import BUILD, TILE_NAMES, TILES, can_use
from games.rules.kingdom_builder.placement import (
    EMPTY,
    adjacent_if_possible,
    empty_buildable,
    empty_hexes,
    touches,
)
from games.rules.kingdom_builder.scoring import score_board
from games.rules.kingdom_builder.state import CHOOSE_TERRAIN, DISCARD_TILE, TURN, State
from games.rules.kingdom_builder.terrain import TERRAIN_NAMES

COMMANDS = ("build", "use_tile", "discard_tile", "end_turn", *deck.CHOICE_COMMANDS)
MANDATORY_BUILDS = 3


# ---- the mandatory action ------------------------------------------------------------------
def mandatory_targets(s: State) -> list[int]:
    """Where the next settlement of the mandatory action may go."""
    if s.card is None:
        return []
    candidates = empty_hexes(s.board, s.owner, s.card)
    if not candidates and s.options["designer_no_terrain"]:
        candidates = empty_buildable(s.board, s.owner)  # designer's rule: any terrain
    return adjacent_if_possible(candidates, s.owner, s.active)


def build(em: Emitter, seat: int, command: dict[str, Any]) -> None:
    s = em.state
    _fields(command, {"type", "hex"})
    target = parse_hex(command, "hex")
    _require_turn_phase(s)
    require(
        not s.mandatory_done(),
        "mandatory_action_done",
        "You have built all the settlements of your mandatory action this turn.",
    )
    if target not in mandatory_targets(s):
        _explain_refused_build(s, seat, target)
    em.emit(
        "settlement_built",
        {"seat": seat, "hex": coords(target), "terrain": s.board.terrain[target], "tile": None},
    )
    after_arrival(em, seat, target)


def _explain_refused_build(s: State, seat: int, target: int) -> None:
    terrain = TERRAIN_NAMES[s.card] if s.card else "?"
    require(s.owner[target] == EMPTY, "hex_occupied", "A settlement already stands there.")
    require(
        s.board.buildable[target],
        "not_buildable",
        "Settlements are built only on grass, canyon, desert, flower field or forest.",
    )
    if empty_hexes(s.board, s.owner, s.card or ""):
        require(
            s.board.terrain[target] == s.card,
            "wrong_terrain",
            f"Your terrain card this turn is {terrain}.",
        )
    raise IllegalCommand(
        "must_build_adjacent",
        f"You have a settlement next to an empty {terrain} hex, so this settlement must go "
        "next to one of yours.",
    )


# ---- location tiles --------------------------------------------------------------------------
def usable_tiles(s: State, seat: int) -> list[str]:
    """Kinds of tile the player may use now: held, not taken this turn, not used yet."""
    return sorted({t["tile"] for t in s.held[seat] if not t["fresh"] and not t["used"]})


def tiles_allowed_now(s: State) -> bool:
    """Tiles go entirely before or after the mandatory action, never in its middle."""
    return s.phase == TURN and not s.mandatory_in_progress()


def use_tile(em: Emitter, seat: int, command: dict[str, Any]) -> None:
    s = em.state
    key = command.get("tile")
    require(
        isinstance(key, str) and key in TILES,
        "unknown_tile",
        f"'tile' must be one of: {', '.join(TILES)}.",
    )
    tile = TILES[key]
    _fields(
        command, {"type", "tile", "to"} if tile.effect == BUILD else {"type", "tile", "from", "to"}
    )
    to = parse_hex(command, "to")
    source = parse_hex(command, "from") if tile.effect != BUILD else -1
    _require_turn_phase(s)
    require(
        not s.mandatory_in_progress(),
        "mandatory_action_in_progress",
        "Finish your mandatory action first: tiles are used before or after it.",
    )
    held = [t for t in s.held[seat] if t["tile"] == key]
    name = TILE_NAMES[key]
    require(bool(held), "tile_not_held", f"You hold no {name} tile.")
    require(
        any(not t["fresh"] for t in held),
        "tile_taken_this_turn",
        f"You took your {name} tile this turn; you may use it from your next turn.",
    )
    require(key in usable_tiles(s, seat), "tile_already_used", f"You used {name} this turn.")
    if tile.effect == BUILD:
        require(s.supply[seat] > 0, "no_settlements_left", "You have no settlement left.")
        require(to in tile.targets(s, seat), "illegal_target", f"{name} cannot build there.")
        em.emit(
            "settlement_built",
            {"seat": seat, "hex": coords(to), "terrain": s.board.terrain[to], "tile": key},
        )
        after_arrival(em, seat, to)
        return
    require(s.owner[source] == seat, "not_your_settlement", "You have no settlement there.")
    moves = tile.targets(s, seat)
    require(to in moves.get(source, ()), "illegal_target", f"{name} cannot move it there.")
    em.emit(
        "settlement_moved",
        {"seat": seat, "from": coords(source), "to": coords(to), "tile": key},
    )
    after_arrival(em, seat, to)
    after_departure(em, seat, source)


def after_arrival(em: Emitter, seat: int, hex_: int) -> None:
    """Take one tile from each location hex newly touched, never twice from one hex."""
    s = em.state
    for n in NEIGHBOURS[hex_]:
        kind = s.board.locations.get(n)
        if kind is not None and s.tiles_left.get(n, 0) > 0 and n not in s.taken_from[seat]:
            em.emit("tile_taken", {"seat": seat, "tile": kind, "location": coords(n)})
    if s.supply[seat] == 0 and not s.end_triggered:
        em.emit("game_end_triggered", {"seat": seat})


def after_departure(em: Emitter, seat: int, hex_: int) -> None:
    """Lose at once the tile of every location hex the player no longer touches."""
    s = em.state
    for n in NEIGHBOURS[hex_]:
        if n not in s.board.locations or touches(s.owner, seat, n):
            continue
        if not any(t["location"] == n for t in s.held[seat]):
            continue
        kind = s.board.locations[n]
        alike = [t for t in s.held[seat] if t["tile"] == kind]
        states = {(t["fresh"], t["used"]) for t in alike}
        public = {"seat": seat, "tile": kind, "location": coords(n)}
        if len(states) > 1:
            em.emit("tile_loss_pending", public)  # the player picks which one goes
        else:
            em.emit("tile_lost", {**public, "discarded": coords(n)})


def discard_tile(em: Emitter, seat: int, command: dict[str, Any]) -> None:
    s = em.state
    _fields(command, {"type", "location"})
    chosen = parse_hex(command, "location")
    require(s.phase == DISCARD_TILE, "nothing_to_discard", "You have no tile to discard now.")
    loss = s.pending[0]
    require(
        any(t["tile"] == loss["tile"] and t["location"] == chosen for t in s.held[seat]),
        "no_such_tile",
        f"Pick one of your {TILE_NAMES.get(loss['tile'], loss['tile'])} tiles by its location.",
    )
    em.emit(
        "tile_lost",
        {
            "seat": seat,
            "tile": loss["tile"],
            "location": coords(loss["location"]),
            "discarded": coords(chosen),
        },
    )


# ---- the end of a turn and of the game ------------------------------------------------------
def end_turn(em: Emitter, rng: random.Random, seat: int) -> None:
    s = em.state
    if s.card is not None and s.terrain_draw != deck.CHOOSE:
        em.emit("terrain_card_discarded", {"seat": seat, "terrain": s.card, "source": "play"})
    deck.draw_up(em, rng, seat)
    em.emit("turn_ended", {"seat": seat})
    following = (seat + 1) % s.players
    if s.end_triggered and following == s.start_player:
        finish(em)
    else:
        start_turn(em, rng, following)


def start_turn(em: Emitter, rng: random.Random, seat: int) -> None:
    em.emit("turn_started", {"seat": seat, "turn": em.state.turns[seat] + 1})
    deck.offer_terrain(em, rng, seat)


def final_scores(s: State) -> dict[int, dict[str, int]]:
    players = {seat: s.settlements[seat] for seat in range(s.players)}
    gold = dict(enumerate(s.gold))
    return score_board(s.board, players, s.cards, gold)


def finish(em: Emitter) -> None:
    scores = final_scores(em.state)
    totals = {seat: line["total"] for seat, line in scores.items()}
    em.emit(
        "game_finished",
        {
            "scores": {str(seat): total for seat, total in totals.items()},
            "ranking": rank_by_score(totals),
            "breakdown": {
                str(seat): {k: v for k, v in line.items() if k != "total"}
                for seat, line in scores.items()
            },
        },
    )


def settle(em: Emitter, rng: random.Random) -> None:
    """Run the automatic steps until the active player has a choice (or the game ends)."""
    while True:
        s = em.state
        if s.phase != TURN:
            return
        seat = s.active
        if not s.mandatory_done() and not mandatory_targets(s):
            deck.no_terrain_left(em, rng, seat)
            continue
        if s.mandatory_done() and not any(can_use(s, seat, k) for k in usable_tiles(s, seat)):
            end_turn(em, rng, seat)  # nothing left to do: the turn ends by itself
            continue
        return


# ---- commands ----------------------------------------------------------------------------
def decide(s: State, seat: int, command: dict[str, Any], rng: random.Random) -> list[Event]:
    require(not s.finished, "game_over", "The game is over.")
    kind = command_type(command, COMMANDS)
    require(isinstance(seat, int) and seat == s.active, "not_your_turn", "It is not your turn.")
    em = Emitter(s)
    if kind in deck.CHOICE_COMMANDS:
        deck.check_choice(s, seat, command)
        deck.choose(em, rng, seat, command)
    elif kind == "build":
        build(em, seat, command)
    elif kind == "use_tile":
        use_tile(em, seat, command)
    elif kind == "discard_tile":
        discard_tile(em, seat, command)
    else:
        _fields(command, {"type"})
        _require_turn_phase(s)
        require(
            s.mandatory_done(),
            "mandatory_action_not_done",
            "Build the settlements of your mandatory action first.",
        )
        end_turn(em, rng, seat)
    settle(em, rng)
    return em.events


def legal_commands(s: State, seat: int) -> list[dict[str, Any]]:
    if s.finished or seat != s.active:
        return []
    if s.phase == CHOOSE_TERRAIN:
        return deck.choice_commands(s, seat)
    if s.phase == DISCARD_TILE:
        kind = s.pending[0]["tile"]
        return [
            {"type": "discard_tile", "location": coords(t["location"])}
            for t in s.held[seat]
            if t["tile"] == kind
        ]
    commands: list[dict[str, Any]] = []
    if not s.mandatory_done():
        commands.extend({"type": "build", "hex": coords(h)} for h in sorted(mandatory_targets(s)))
    if tiles_allowed_now(s):
        for key in usable_tiles(s, seat):
            tile = TILES[key]
            if tile.effect == BUILD:
                if s.supply[seat] > 0:
                    commands.extend(
                        {"type": "use_tile", "tile": key, "to": coords(h)}
                        for h in tile.targets(s, seat)
                    )
            else:
                for source, targets in tile.targets(s, seat).items():
                    start = coords(source)
                    commands.extend(
                        {"type": "use_tile", "tile": key, "from": start, "to": coords(h)}
                        for h in targets
                    )
    if s.mandatory_done():
        commands.append({"type": "end_turn"})
    return commands


# ---- input checking ----------------------------------------------------------------------------
def _require_turn_phase(s: State) -> None:
    require(
        s.phase != DISCARD_TILE,
        "discard_tile_first",
        "First choose which of your two alike tiles to give up.",
    )
    require(s.phase == TURN, "choose_terrain_first", "Choose your terrain for this turn first.")


def _fields(command: dict[str, Any], expected: set[str]) -> None:
    require(
        set(command) == expected,
        "malformed_command",
        f"{command.get('type')!r} takes exactly the fields: {', '.join(sorted(expected))}.",
    )


def parse_hex(command: dict[str, Any], name: str) -> int:
    """A ``[row, col]`` field as a flat index, refusing junk and off-board hexes."""
    value = command.get(name)
    if not (
        isinstance(value, list | tuple)
        and len(value) == 2
        and all(isinstance(v, int) and not isinstance(v, bool) for v in value)
    ):
        raise IllegalCommand("bad_hex", f"'{name}' must be a hex as [row, col].")
    row, col = value
    require(
        0 <= row < ROWS and 0 <= col < COLS,
        "off_board",
        f"Hex [{row}, {col}] is off the board (rows and columns run 0-19).",
    )
    return row * COLS + col
