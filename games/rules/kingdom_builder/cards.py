"""The Kingdom Builder cards: one scoring function each.

The 10 base cards score at the end: each takes the board, every player's settlements
(seat -> set of flat hex indices, city halls included) and the seat to score, and returns
gold. Only Lords looks at other players. The 3 Nomads cards (Families, Ambassadors,
Shepherds) pay during play, for each settlement built: ``PLAY_CARDS``.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Mapping
from typing import Any

from games.rules.kingdom_builder.board import COLS, NEIGHBOUR_SETS, NEIGHBOURS, SECTOR, STEPS, Board
from games.rules.kingdom_builder.placement import EMPTY, settlement_seat

Settlements = Mapping[int, Collection[int]]
SECTORS = 4


def groups(own: Collection[int]) -> list[set[int]]:
    """The separate groups (connected by adjacency) of one player's settlements."""
    left = set(own)
    found: list[set[int]] = []
    while left:
        start = left.pop()
        group, stack = {start}, [start]
        while stack:
            joined = NEIGHBOUR_SETS[stack.pop()] & left
            if joined:
                left -= joined
                group |= joined
                stack.extend(joined)
        found.append(group)
    return found


def _rows(own: Collection[int]) -> dict[int, int]:
    counts: dict[int, int] = {}
    for i in own:
        counts[i // COLS] = counts.get(i // COLS, 0) + 1
    return counts


def _sector_counts(own: Collection[int]) -> list[int]:
    counts = [0] * SECTORS
    for i in own:
        counts[SECTOR[i]] += 1
    return counts


def fishermen(board: Board, players: Settlements, seat: int) -> int:
    """1 gold per settlement next to water; settlements on water score nothing."""
    return len(board.fishing.intersection(players[seat]))


def miners(board: Board, players: Settlements, seat: int) -> int:
    """1 gold per settlement next to a mountain."""
    return len(board.mining.intersection(players[seat]))


def workers(board: Board, players: Settlements, seat: int) -> int:
    """1 gold per settlement next to a location or castle hex (or a nomad space)."""
    return len(board.working.intersection(players[seat]))


def merchants(board: Board, players: Settlements, seat: int) -> int:
    """4 gold per location/castle hex linked by a chain of your settlements to another one.

    Each group of settlements links the special hexes it touches; a group touching two or
    more scores them all. Groups need not join each other; a hex scores once. Nomad spaces
    count as such hexes (the Nomads edition of the card).
    """
    near = board.special_near
    linked: set[int] = set()
    for group in groups(players[seat]):
        touched = set().union(*(near[i] for i in group))
        if len(touched) >= 2:
            linked |= touched
    return 4 * len(linked)


def discoverers(board: Board, players: Settlements, seat: int) -> int:
    """1 gold per horizontal row holding at least one of your settlements."""
    return len(_rows(players[seat]))


def knights(board: Board, players: Settlements, seat: int) -> int:
    """2 gold per settlement in your fullest horizontal row (a plain count: no search)."""
    rows = _rows(players[seat])
    return 2 * max(rows.values(), default=0)


def hermits(board: Board, players: Settlements, seat: int) -> int:
    """1 gold per separate group of your settlements (a lone settlement is a group)."""
    return len(groups(players[seat]))


def citizens(board: Board, players: Settlements, seat: int) -> int:
    """1 gold per 2 settlements in your largest group, rounded down."""
    return max((len(g) for g in groups(players[seat])), default=0) // 2


def farmers(board: Board, players: Settlements, seat: int) -> int:
    """3 gold per settlement in your emptiest sector (0 when one sector holds none)."""
    return 3 * min(_sector_counts(players[seat]))


def lords(board: Board, players: Settlements, seat: int) -> int:
    """Per sector: 12 gold for the most settlements, 6 for the second-most.

    Tied players all get the full amount. Counts are compared as numbers, so a player with
    no settlement in a sector still scores if 0 is the most or the second-most count.
    """
    counts = {s: _sector_counts(own) for s, own in players.items()}
    gold = 0
    for sector in range(SECTORS):
        values = sorted({c[sector] for c in counts.values()}, reverse=True)
        mine = counts[seat][sector]
        if mine == values[0]:
            gold += 12
        elif len(values) > 1 and mine == values[1]:
            gold += 6
    return gold


CARDS: dict[str, Callable[[Board, Settlements, int], int]] = {
    "fishermen": fishermen,
    "miners": miners,
    "workers": workers,
    "merchants": merchants,
    "discoverers": discoverers,
    "knights": knights,
    "hermits": hermits,
    "citizens": citizens,
    "farmers": farmers,
    "lords": lords,
}

CARD_NAMES: dict[str, str] = {key: key.capitalize() for key in CARDS}


# ---- Nomads: cards that pay during play, for settlements built (never for moves) ----------
def families(state: Any, seat: int, hex_: int) -> int:
    """2 gold when the 3 settlements of the mandatory action stand in a straight line.

    Paid as the third one is built: three consecutive hexes along one of the 3 axes.
    """
    built = state.mandatory_hexes
    if len(built) != 3 or hex_ != built[-1]:
        return 0
    line = set(built)
    for a in built:
        for direction in range(3):
            b = STEPS[a][direction]
            if b in line and STEPS[b][direction] in line:
                return 2
    return 0


def ambassadors(state: Any, seat: int, hex_: int) -> int:
    """1 gold for a settlement built next to another player's settlement (or city hall)."""
    for n in NEIGHBOURS[hex_]:
        other = settlement_seat(state, n)
        if other >= 0 and other != seat:
            return 1
    return 0


def shepherds(state: Any, seat: int, hex_: int) -> int:
    """2 gold for a settlement built with no empty hex of its own terrain next to it."""
    terrain, owner = state.board.terrain, state.owner
    kind = terrain[hex_]
    if any(terrain[n] == kind and owner[n] == EMPTY for n in NEIGHBOURS[hex_]):
        return 0
    return 2


PLAY_CARDS: dict[str, Callable[[Any, int, int], int]] = {
    "families": families,
    "ambassadors": ambassadors,
    "shepherds": shepherds,
}
NOMADS_CARDS = tuple(PLAY_CARDS)
CARD_NAMES.update({key: key.capitalize() for key in PLAY_CARDS})
