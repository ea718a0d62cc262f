"""End-of-game scoring, shared by the engine and ``manage.py score kingdom-builder``.

A player's line: ``castles``, one entry per Kingdom Builder card in play (for the Nomads
cards: the gold they paid during play), ``treasure`` (Nomads: gold from Treasure tiles),
one entry per Crossroads task in play, and ``total``.

Position file (``score_position``), all keys but the first three optional:
- ``grid``: 20 strings of 20 letters (G C D F T W M, S castle, L location, N nomad space,
  ``.`` any buildable terrain);
- ``settlements``: ``{"0": [[row, col], ...], ...}`` (settlements may stand on W and M);
- ``cards``: card names in play (base and Nomads cards);
- ``gold``: ``{"0": {"families": 4, "treasure": 3}, ...}``: gold earned during play;
- ``tasks``: Crossroads task names in play (``home_country``, ``fortress``...);
- ``city_halls``: ``{"0": [row, col], ...}``: the centre of each player's city hall (it
  and its 6 neighbours count as that player's settlements);
- ``walls``: ``[[row, col], ...]``: Nomads stone walls (they only fill hexes);
- ``pieces``: ``{"0": {"warriors": [[r, c], ...], "wagon": [r, c], "ship": [r, c]}}``
  (warriors on the 5 terrains, the wagon there or on a mountain, the ship on water);
- ``pieces_score``: true to count warriors, wagons and ships as settlements (the later
  Crossroads ruling); by default they leave the board before scoring.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from typing import Any

from games.rules.base import IllegalCommand
from games.rules.kingdom_builder.board import (
    COLS,
    NEIGHBOUR_SETS,
    NEIGHBOURS,
    ROWS,
    Board,
    board_from_grid,
)
from games.rules.kingdom_builder.cards import CARDS, PLAY_CARDS
from games.rules.kingdom_builder.tasks import TASKS, task_gold
from games.rules.kingdom_builder.terrain import LETTER_TERRAIN

CASTLE_GOLD = 3
GAINS = ("treasure",)  # gold earned during play that is no card's
# Grid letters each Crossroads piece cannot stand on: warriors on the 5 terrains only,
# the wagon also on a mountain, the ship on water only.
PIECE_FORBIDDEN = {"warrior": "SLNWM", "wagon": "SLNW", "ship": "GCDFTMSLN."}


class BadPosition(IllegalCommand, ValueError):
    """A malformed position file (a ValueError; code ``bad_position``)."""

    def __init__(self, message: str) -> None:
        super().__init__("bad_position", message)


def castles(board: Board, own: Collection[int]) -> int:
    """3 gold per castle hex next to at least one of your settlements."""
    own_set = set(own)
    return CASTLE_GOLD * sum(
        1 for castle in board.castles if not NEIGHBOUR_SETS[castle].isdisjoint(own_set)
    )


def score_board(
    board: Board,
    players: Mapping[int, Collection[int]],
    cards: Sequence[str],
    earned: Mapping[int, Mapping[str, int]] | None = None,
    tasks: Sequence[str] = (),
    gains: Sequence[str] = (),
) -> dict[int, dict[str, int]]:
    """Per seat: ``{"castles": n, <card>: n, ..., <gain>: n, <task>: n, "total": n}``.

    ``players`` maps each seat to the hexes counting as its settlements; ``earned`` is the
    gold each seat earned during play, by source (a Nomads card or a gain like treasure).
    """
    earned = earned or {}
    sets = {seat: set(own) for seat, own in players.items()}
    result: dict[int, dict[str, int]] = {}
    for seat in sorted(sets):
        mine = earned.get(seat, {})
        line = {"castles": castles(board, sets[seat])}
        for card in cards:
            line[card] = mine.get(card, 0) if card in PLAY_CARDS else CARDS[card](board, sets, seat)
        for gain in gains:
            line[gain] = mine.get(gain, 0)
        for task in tasks:
            line[task] = task_gold(task, board, sets[seat])
        line["total"] = sum(line.values())
        result[seat] = line
    return result


def scoring_settlements(s: Any) -> dict[int, set[int]]:
    """What counts as each seat's settlements at the end: settlements and city-hall hexes;
    warriors, wagons and ships too under ``crossroads_pieces_score``."""
    pieces = s.options.get("crossroads_pieces_score", False)
    players: dict[int, set[int]] = {}
    for seat in range(s.players):
        own = s.settlements[seat] | set(s.city_hall[seat])
        if pieces:
            own |= set(s.warriors[seat]) | {h for h in (s.wagon[seat], s.ship[seat]) if h >= 0}
        players[seat] = own
    return players


def score_state(s: Any) -> dict[int, dict[str, int]]:
    """The board as it would score now (the final score once the game is over)."""
    gains = GAINS if s.options.get("nomads") else ()
    return score_board(
        s.board, scoring_settlements(s), s.cards, dict(enumerate(s.earned)), s.tasks, gains
    )


# ---- position files --------------------------------------------------------------------------
def _pair(pair: Any, what: str) -> int:
    if (
        not isinstance(pair, list | tuple)
        or len(pair) != 2
        or not all(isinstance(v, int) and not isinstance(v, bool) for v in pair)
        or not (0 <= pair[0] < ROWS and 0 <= pair[1] < COLS)
    ):
        raise BadPosition(f"Bad hex {pair!r} for {what}: [row, col] within 0-19.")
    row: int = pair[0]
    col: int = pair[1]
    return row * COLS + col


def _seat(key: Any) -> int:
    try:
        return int(key)
    except (TypeError, ValueError):
        raise BadPosition(f"Seat {key!r} is not a number.") from None


def _by_seat(position: dict[str, Any], name: str) -> dict[int, Any]:
    raw = position.get(name, {})
    if not isinstance(raw, dict):
        raise BadPosition(f'{name} must map a seat ("0", "1", ...) to its value.')
    return {_seat(key): value for key, value in raw.items()}


def _names(position: dict[str, Any], name: str, allowed: Collection[str]) -> list[str]:
    raw = position.get(name, [])
    if not isinstance(raw, list) or not all(isinstance(c, str) for c in raw):
        raise BadPosition(f"{name} must be a list of names.")
    names = [c.lower() for c in raw]
    if any(c not in allowed for c in names) or len(set(names)) != len(names):
        raise BadPosition(f"{name} must be distinct names among: {', '.join(allowed)}.")
    return names


class _Hexes:
    """Hexes claimed so far in a position: refuses a hex claimed twice or unfit."""

    def __init__(self, grid: list[str]) -> None:
        self.grid = grid
        self.taken: set[int] = set()

    def claim(self, pair: Any, what: str, forbidden: str = "SLN") -> int:
        i = _pair(pair, what)
        if i in self.taken:
            raise BadPosition(f"Hex {list(pair)} holds two pieces.")
        if self.grid[pair[0]][pair[1]] in forbidden:
            raise BadPosition(f"Hex {list(pair)} cannot hold {what}.")
        self.taken.add(i)
        return i


def _grid(position: dict[str, Any]) -> list[str]:
    grid = position.get("grid")
    if (
        not isinstance(grid, list)
        or len(grid) != ROWS
        or not all(isinstance(row, str) and len(row) == COLS for row in grid)
    ):
        raise BadPosition(f"grid must be {ROWS} strings of {COLS} letters.")
    bad = sorted({ch for row in grid for ch in row if ch not in LETTER_TERRAIN})
    if bad:
        raise BadPosition(
            f"Unknown grid letters: {''.join(bad)} (allowed: {''.join(LETTER_TERRAIN)})."
        )
    return grid


def score_position(position: dict[str, Any]) -> dict[str, Any]:
    """Score a position file (format in the module docstring).

    Raises BadPosition (a ValueError) with a readable message for a malformed position.
    """
    if not isinstance(position, dict):
        raise BadPosition("A position is a JSON object with grid, settlements and cards.")
    grid = _grid(position)
    if not isinstance(position.get("cards"), list):
        raise BadPosition("cards must be a list of card names.")
    cards = _names(position, "cards", [*CARDS, *PLAY_CARDS])
    tasks = _names(position, "tasks", list(TASKS))
    if not isinstance(position.get("settlements"), dict):
        raise BadPosition('settlements must map a seat ("0", "1", ...) to [[row, col], ...].')
    hexes = _Hexes(grid)
    players: dict[int, set[int]] = {}
    for seat, listed in _by_seat(position, "settlements").items():
        if not isinstance(listed, list):
            raise BadPosition(f"Settlements of seat {seat} must be a list of [row, col].")
        players[seat] = {hexes.claim(pair, f"a settlement of seat {seat}") for pair in listed}
    for seat, centre in _by_seat(position, "city_halls").items():
        middle = _pair(centre, f"the city hall of seat {seat}")
        ring = NEIGHBOURS[middle]
        if len(ring) != 6:
            raise BadPosition(f"The city hall of seat {seat} must not touch the board's edge.")
        for i in (middle, *ring):
            hexes.claim([i // COLS, i % COLS], "a city hall", "SLNWM")
            players.setdefault(seat, set()).add(i)
    walls = position.get("walls", [])
    if not isinstance(walls, list):
        raise BadPosition("walls must be a list of [row, col].")
    for pair in walls:
        hexes.claim(pair, "a wall", "SLNWM")
    counted = position.get("pieces_score", False)
    if not isinstance(counted, bool):
        raise BadPosition("pieces_score must be true or false.")
    for seat, pieces in _by_seat(position, "pieces").items():
        if not isinstance(pieces, dict) or set(pieces) - {"warriors", "wagon", "ship"}:
            raise BadPosition(f"pieces of seat {seat}: an object with warriors, wagon, ship.")
        placed = [("warrior", pair) for pair in pieces.get("warriors") or []]
        placed += [(k, pieces[k]) for k in ("wagon", "ship") if pieces.get(k) is not None]
        for kind, pair in placed:
            i = hexes.claim(pair, f"a {kind} of seat {seat}", PIECE_FORBIDDEN[kind])
            if counted:
                players.setdefault(seat, set()).add(i)
    gold = _by_seat(position, "gold")
    earned: dict[int, dict[str, int]] = {}
    for seat, sources in gold.items():
        if not isinstance(sources, dict) or not all(
            isinstance(v, int) and not isinstance(v, bool) and v >= 0 for v in sources.values()
        ):
            raise BadPosition(f"gold of seat {seat} must map a source to whole gold.")
        unknown = set(sources) - set(PLAY_CARDS) - set(GAINS)
        if unknown:
            raise BadPosition(f"Unknown gold sources: {', '.join(sorted(unknown))}.")
        earned[seat] = dict(sources)
        players.setdefault(seat, set())
    gains = [g for g in GAINS if any(g in e for e in earned.values())]
    board = board_from_grid(grid)
    scores = score_board(board, players, cards, earned, tasks, gains)
    return {"players": {str(seat): line for seat, line in scores.items()}}
