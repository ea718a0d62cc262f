"""The Nomads nomad tiles, and the multi-step actions of the Nomads expansion.

15 nomad tiles: Donation ×7 (one per terrain: the 5 terrains, water, mountain),
Resettlement ×2, Outpost ×2 (key ``nomad_outpost``: Crossroads has an Outpost location),
Sword ×2, Treasure ×2. One lies face up on each nomad space; the first player to build or
move next to it takes it (``arrival.py``). It must be used in that player's next turn and
is gone after it, used or not; moving away does not lose it. Treasure pays 3 gold at once.

Using one: ``{"type": "use_nomad_tile", "tile": key}``. Donation, Resettlement and Sword
(and Quarry's second wall) then run as an *action* with its own commands until done:
``build`` ×3 (Donation), ``move_settlement`` ×≤4 (Resettlement), ``remove_settlement``
per opponent (Sword), ``place_wall`` (Quarry); ``finish_action`` stops Resettlement or
Quarry early. Outpost arms: the next settlement built this turn ignores the adjacency
rule.
"""

from __future__ import annotations

import random
from typing import Any

from games.rules.base import IllegalCommand, require
from games.rules.kingdom_builder.arrival import after_arrival, after_build, after_departure
from games.rules.kingdom_builder.board import NEIGHBOURS, Board, coords
from games.rules.kingdom_builder.checks import (
    fields,
    parse_hex,
    require_extra_action_time,
    require_no_action,
    require_turn_phase,
)
from games.rules.kingdom_builder.emitter import Emitter
from games.rules.kingdom_builder.extra_actions import usable_tiles
from games.rules.kingdom_builder.nomad_locations import quarry
from games.rules.kingdom_builder.placement import build_targets, can_settle, free_hexes
from games.rules.kingdom_builder.state import TURN
from games.rules.kingdom_builder.terrain import BUILDABLE_TERRAINS, MOUNTAIN, TERRAIN_NAMES, WATER
from games.rules.kingdom_builder.tiles import BUILD, TILES

State = Any  # games.rules.kingdom_builder.state.State
Command = dict[str, Any]

DONATIONS = tuple(f"donation_{t}" for t in (*BUILDABLE_TERRAINS, WATER, MOUNTAIN))
NOMAD_TILES: tuple[str, ...] = (
    *DONATIONS,
    *("resettlement", "nomad_outpost", "sword", "treasure") * 2,
)
NOMAD_TILE_NAMES: dict[str, str] = {
    **{d: f"Donation ({TERRAIN_NAMES[d.removeprefix('donation_')]})" for d in DONATIONS},
    "resettlement": "Resettlement",
    "nomad_outpost": "Outpost",
    "sword": "Sword",
    "treasure": "Treasure",
}
ACTION_COMMANDS = ("move_settlement", "remove_settlement", "place_wall", "finish_action")
STOPPABLE = ("resettlement", "quarry")  # may end before all their steps are taken


def deal_nomad_tiles(board: Board, rng: random.Random) -> list[dict[str, Any]]:
    """One random nomad tile face up on each nomad space (public)."""
    spaces = sorted(board.nomad_spaces)
    tiles = rng.sample(NOMAD_TILES, len(spaces))
    return [{"hex": coords(h), "tile": t} for h, t in zip(spaces, tiles, strict=True)]


# ---- targets -------------------------------------------------------------------------------
def donation(s: State, seat: int, terrain: str) -> list[int]:
    """Build on the donation's terrain (water and mountain too), adjacent if possible."""
    if s.supply[seat] <= 0:
        return []
    return build_targets(s, free_hexes(s, terrain), seat)


def resettlement(s: State, seat: int) -> dict[int, list[int]]:
    """One step of one settlement onto a neighbouring hex a settlement could be built on.

    Each step follows the adjacency rule (FAQ: only Paddock and Caravan are exempt), judged
    after picking the settlement up: onto a hex next to another of yours if it has one.
    """
    owner = s.owner
    moves: dict[int, list[int]] = {}
    for source in sorted(s.settlements[seat]):
        steps = sorted(n for n in NEIGHBOURS[source] if can_settle(s, n))
        near = [n for n in steps if any(m != source and owner[m] == seat for m in NEIGHBOURS[n])]
        if steps:
            moves[source] = near or steps
    return moves


def sword_victims(s: State, seat: int) -> list[int]:
    """Opponents with a settlement on the board, in turn order after the Sword player."""
    order = [(seat + k) % s.players for k in range(1, s.players)]
    return [p for p in order if s.settlements[p]]


def _usable(s: State, seat: int) -> list[dict[str, Any]]:
    """Nomad tiles taken before this turn (to be used in it), one per kind."""
    seen: dict[str, dict[str, Any]] = {}
    for tile in s.nomad_held[seat]:
        if not tile["fresh"]:
            seen.setdefault(tile["tile"], tile)
    return list(seen.values())


def _can_start(s: State, seat: int, key: str) -> bool:
    if key in DONATIONS:
        return bool(donation(s, seat, key.removeprefix("donation_")))
    if key == "resettlement":
        return bool(resettlement(s, seat))
    if key == "sword":
        return bool(sword_victims(s, seat))
    return False


def start_commands(s: State, seat: int) -> list[Command]:
    """Donation, Resettlement, Sword: usable before or after the mandatory action."""
    return [
        {"type": "use_nomad_tile", "tile": t["tile"]}
        for t in _usable(s, seat)
        if _can_start(s, seat, t["tile"])
    ]


def outpost_commands(s: State, seat: int) -> list[Command]:
    """Outpost may be armed at any time of the turn while a build is still to come."""
    if s.phase != TURN or s.action is not None or s.outpost_armed or s.supply[seat] <= 0:
        return []
    if not any(t["tile"] == "nomad_outpost" for t in _usable(s, seat)):
        return []
    if not _builds_to_come(s, seat):
        return []
    return [{"type": "use_nomad_tile", "tile": "nomad_outpost"}]


def _builds_to_come(s: State, seat: int) -> bool:
    """Whether a settlement may still be built this turn (mandatory, tile or donation)."""
    if not s.mandatory_done():
        return True
    for key in usable_tiles(s, seat):
        if TILES[key].effect == BUILD and TILES[key].targets(s, seat):
            return True
    return any(t["tile"] in DONATIONS and _can_start(s, seat, t["tile"]) for t in _usable(s, seat))


def use_nomad_tile(em: Emitter, seat: int, command: Command) -> None:
    s = em.state
    fields(command, {"type", "tile"})
    key = command.get("tile")
    if not (isinstance(key, str) and key in NOMAD_TILE_NAMES):
        raise IllegalCommand(
            "unknown_nomad_tile", f"'tile' must be one of: {', '.join(NOMAD_TILE_NAMES)}."
        )
    name = NOMAD_TILE_NAMES[key]
    held = [t for t in s.nomad_held[seat] if t["tile"] == key]
    require(bool(held), "nomad_tile_not_held", f"You hold no {name} nomad tile.")
    ready = [t for t in held if not t["fresh"]]
    require(
        bool(ready),
        "nomad_tile_taken_this_turn",
        f"You took {name} this turn: it is for your next turn.",
    )
    public: dict[str, Any] = {"seat": seat, "tile": key, "space": coords(ready[0]["space"])}
    if key == "nomad_outpost":
        require_turn_phase(s)
        require_no_action(s)
        require(not s.outpost_armed, "outpost_armed", "Your Outpost is already armed.")
        require(
            command in outpost_commands(s, seat),
            "no_build_to_come",
            "You have nothing left to build this turn.",
        )
        em.emit("nomad_tile_used", public)
        return
    require_extra_action_time(s)
    require(_can_start(s, seat, key), "nothing_to_do", f"{name} has nothing to act on now.")
    if key == "sword":
        public["victims"] = sword_victims(s, seat)
    em.emit("nomad_tile_used", public)


# ---- the action in progress ---------------------------------------------------------------
def action_commands(s: State, seat: int) -> list[Command]:
    """The commands continuing the action in progress."""
    action = s.action
    kind = action["kind"]
    if kind == "donation":
        return [{"type": "build", "hex": coords(h)} for h in donation(s, seat, action["terrain"])]
    if kind == "sword":
        victim = action["victims"][0]
        return [
            {"type": "remove_settlement", "hex": coords(h)} for h in sorted(s.settlements[victim])
        ]
    if kind == "resettlement":
        commands = [
            {"type": "move_settlement", "from": coords(source), "to": coords(h)}
            for source, steps in resettlement(s, seat).items()
            for h in steps
        ]
    else:
        commands = [{"type": "place_wall", "hex": coords(h)} for h in quarry(s, seat)]
    return [*commands, {"type": "finish_action"}]


def continue_action(em: Emitter, seat: int, command: Command) -> None:
    """One step of the action in progress, then its end when nothing is left to do."""
    s = em.state
    require_turn_phase(s)
    kind = command["type"]
    action = s.action
    if action is None:
        raise IllegalCommand("no_action", "No tile action is in progress.")
    expected = {"donation": "build", "sword": "remove_settlement"}.get(
        action["kind"], "move_settlement" if action["kind"] == "resettlement" else "place_wall"
    )
    if kind == "finish_action":
        fields(command, {"type"})
        require(
            action["kind"] in STOPPABLE,
            "action_not_stoppable",
            "This tile's action must be carried out in full.",
        )
        em.emit("action_finished", {"seat": seat, "tile": action["tile"]})
        return
    require(kind == expected, "action_in_progress", f"Continue your action with {expected!r}.")
    if kind == "move_settlement":
        fields(command, {"type", "from", "to"})
        source, to = parse_hex(command, "from"), parse_hex(command, "to")
        wanted = {"type": kind, "from": coords(source), "to": coords(to)}
    else:
        fields(command, {"type", "hex"})
        source, to = -1, parse_hex(command, "hex")
        wanted = {"type": kind, "hex": coords(to)}
    require(wanted in action_commands(s, seat), "illegal_target", "That is not possible here.")
    _step(em, seat, action, source, to)
    if not _goes_on(em.state, seat):
        em.emit("action_finished", {"seat": seat, "tile": action["tile"]})


def _step(em: Emitter, seat: int, action: dict[str, Any], source: int, to: int) -> None:
    s = em.state
    kind, tile = action["kind"], action["tile"]
    if kind == "donation":
        em.emit(
            "settlement_built",
            {"seat": seat, "hex": coords(to), "terrain": s.board.terrain[to], "tile": tile},
        )
        after_build(em, seat, to)
    elif kind == "resettlement":
        em.emit(
            "settlement_moved",
            {"seat": seat, "from": coords(source), "to": coords(to), "tile": tile},
        )
        after_arrival(em, seat, (to,))
        after_departure(em, seat, source)
    elif kind == "sword":
        victim = s.owner[to]
        em.emit("settlement_removed", {"seat": seat, "victim": victim, "hex": coords(to)})
        after_departure(em, victim, to)
    else:
        em.emit("wall_placed", {"seat": seat, "hex": coords(to), "tile": tile, "wall": 2})


def _goes_on(s: State, seat: int) -> bool:
    action = s.action
    if action is None:
        return False
    kind = action["kind"]
    if kind == "sword":
        return bool(action["victims"])
    if action["left"] <= 0:
        return False
    return len(action_commands(s, seat)) > (0 if kind == "donation" else 1)


def expire_nomad_tiles(em: Emitter, seat: int) -> None:
    """End of turn: nomad tiles meant for this turn are gone, used or not."""
    for tile in list(em.state.nomad_held[seat]):
        if not tile["fresh"]:
            em.emit(
                "nomad_tile_expired",
                {"seat": seat, "tile": tile["tile"], "space": coords(tile["space"])},
            )
