"""Table options: the Wizard, and the three variants of the rulebook.

DECISION: the variants are three independent bool options rather than one ``variant``
choice. Each changes a different rule -- Down to the Last Castle the castle supply and
the end of the game, No Luck how a tile is chosen, Score as You Go when a line is
scored -- and no combination contradicts another, so a table may combine them (e.g. No
Luck + Score as You Go). All off is the standard game.
"""

from __future__ import annotations

from games.rules.base import Option
from games.rules.kingdoms.board import LINES, LINES_THROUGH
from games.rules.kingdoms.state import KingdomsState

STANDARD_EPOCHS = 3

OPTIONS: tuple[Option, ...] = (
    Option(
        "wizard",
        True,
        "Play with the Wizard (23 tiles, 2011 edition); off gives the 22 tiles of 2002.",
        label="The Wizard",
    ),
    Option(
        "last_castle",
        False,
        "Down to the Last Castle: every player has all 10 castles, every placed castle "
        "leaves the game at the epoch's end, and the game ends after the epoch in which "
        "a player placed their last castle.",
        label="Down to the Last Castle",
    ),
    Option(
        "no_luck",
        False,
        "No Luck: all tiles lie face up at the epoch's start, there are no starting "
        "tiles, and a player chooses which tile to place.",
        label="No Luck",
    ),
    Option(
        "score_as_you_go",
        False,
        "Score as You Go: a row or column is scored the moment it fills.",
        label="Score as You Go",
    ),
)


def is_last_epoch(state: KingdomsState) -> bool:
    """The game ends after this epoch: the third, or in Down to the Last Castle the
    one in which a player placed their last castle."""
    if state.options["last_castle"]:
        return state.final_epoch
    return state.epoch >= STANDARD_EPOCHS


def lines_scored_as_you_go(state: KingdomsState, space: int) -> list[int]:
    """Score as You Go: the lines through ``space`` that it just filled, row first."""
    if not state.options["score_as_you_go"]:
        return []
    grid = state.grid
    return [
        n
        for n in LINES_THROUGH[space]
        if state.line_gains[n] is None and all(grid[i] is not None for i in LINES[n].cells)
    ]
