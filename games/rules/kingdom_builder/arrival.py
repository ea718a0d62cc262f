"""What follows a settlement's arrival or departure, whatever brought it about.

Arrival (built, moved, or a city hall laid): the Nomads cards pay for builds, one tile is
taken from each location hex newly touched, the tile of each nomad space touched first,
and the end of the game is triggered when the supply runs out. Departure (moved away or
removed by a Sword): the tile of each location hex no longer touched is lost at once.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from games.rules.base import require
from games.rules.kingdom_builder.board import NEIGHBOURS, coords
from games.rules.kingdom_builder.cards import PLAY_CARDS
from games.rules.kingdom_builder.emitter import Emitter
from games.rules.kingdom_builder.placement import settled_next_to
from games.rules.kingdom_builder.state import DISCARD_TILE
from games.rules.kingdom_builder.tiles import TILE_NAMES

TREASURE_GOLD = 3


def after_build(em: Emitter, seat: int, hex_: int) -> None:
    """A settlement was built (never a move): the Nomads cards in play pay, then arrival."""
    s = em.state
    for card in s.cards:
        pay = PLAY_CARDS.get(card)
        gold = pay(s, seat, hex_) if pay is not None else 0
        if gold:
            em.emit(
                "gold_earned", {"seat": seat, "gold": gold, "source": card, "hex": coords(hex_)}
            )
    after_arrival(em, seat, (hex_,))


def after_arrival(em: Emitter, seat: int, hexes: Iterable[int]) -> None:
    """Take one tile from each location hex newly touched, never twice from one hex; take
    the tile of each nomad space touched first."""
    s = em.state
    for hex_ in hexes:
        for n in NEIGHBOURS[hex_]:
            kind = s.board.locations.get(n)
            if kind is not None and s.tiles_left.get(n, 0) > 0 and n not in s.taken_from[seat]:
                em.emit("tile_taken", {"seat": seat, "tile": kind, "location": coords(n)})
            nomad = s.nomad_tiles.get(n)
            if nomad is not None:
                take_nomad_tile(em, seat, n, nomad)
    if s.supply[seat] == 0 and not s.end_triggered:
        em.emit("game_end_triggered", {"seat": seat})


def take_nomad_tile(em: Emitter, seat: int, space: int, tile: str) -> None:
    """The first player next to a nomad space takes its tile; Treasure pays at once."""
    public = {"seat": seat, "tile": tile, "space": coords(space)}
    em.emit("nomad_tile_taken", public)
    if tile == "treasure":
        em.emit("nomad_tile_used", public)
        em.emit(
            "gold_earned",
            {"seat": seat, "gold": TREASURE_GOLD, "source": "treasure", "hex": coords(space)},
        )


def after_departure(em: Emitter, seat: int, hex_: int) -> None:
    """Lose at once the tile of every location hex the player no longer touches.

    Only the active player may have to choose between two alike tiles (their states differ
    only within its own turn); a Sword's victim loses the tile of that hex.
    """
    s = em.state
    for n in NEIGHBOURS[hex_]:
        if n not in s.board.locations or settled_next_to(s, seat, n):
            continue
        if not any(t["location"] == n for t in s.held[seat]):
            continue
        kind = s.board.locations[n]
        alike = [t for t in s.held[seat] if t["tile"] == kind]
        states = {(t["fresh"], t["used"]) for t in alike}
        public = {"seat": seat, "tile": kind, "location": coords(n)}
        if len(states) > 1 and seat == s.active:
            em.emit("tile_loss_pending", public)  # the player picks which one goes
        else:
            em.emit("tile_lost", {**public, "discarded": coords(n)})


def discard_tile(em: Emitter, seat: int, chosen: int) -> None:
    s = em.state
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


def discard_commands(s: Any, seat: int) -> list[dict[str, Any]]:
    kind = s.pending[0]["tile"]
    return [
        {"type": "discard_tile", "location": coords(t["location"])}
        for t in s.held[seat]
        if t["tile"] == kind
    ]
