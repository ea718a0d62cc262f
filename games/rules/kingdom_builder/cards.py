"""The 10 Kingdom Builder cards: one scoring function each.

Every function takes the board, every player's settlements (seat -> set of flat hex
indices) and the seat to score, and returns gold. Only Lords looks at other players.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Mapping

from games.rules.kingdom_builder.board import COLS, NEIGHBOURS, SECTOR, Board

Settlements = Mapping[int, Collection[int]]
SECTORS = 4


def groups(own: Collection[int]) -> list[set[int]]:
    """The separate groups (connected by adjacency) of one player's settlements."""
    own_set = set(own)
    seen: set[int] = set()
    found: list[set[int]] = []
    for start in own_set:
        if start in seen:
            continue
        group, stack = {start}, [start]
        seen.add(start)
        while stack:
            here = stack.pop()
            for n in NEIGHBOURS[here]:
                if n in own_set and n not in seen:
                    seen.add(n)
                    group.add(n)
                    stack.append(n)
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
    water = board.water
    return sum(
        1 for i in players[seat] if i not in water and any(n in water for n in NEIGHBOURS[i])
    )


def miners(board: Board, players: Settlements, seat: int) -> int:
    """1 gold per settlement next to a mountain."""
    mountain = board.mountain
    return sum(1 for i in players[seat] if any(n in mountain for n in NEIGHBOURS[i]))


def workers(board: Board, players: Settlements, seat: int) -> int:
    """1 gold per settlement next to a location or castle hex."""
    special = board.special
    return sum(1 for i in players[seat] if any(n in special for n in NEIGHBOURS[i]))


def merchants(board: Board, players: Settlements, seat: int) -> int:
    """4 gold per location/castle hex linked by a chain of your settlements to another one.

    Each group of settlements links the special hexes it touches; a group touching two or
    more scores them all. Groups need not join each other; a hex scores once.
    """
    special = board.special
    linked: set[int] = set()
    for group in groups(players[seat]):
        touched = {n for i in group for n in NEIGHBOURS[i] if n in special}
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
