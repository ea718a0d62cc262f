"""The shape of every Kingdoms command (see ``base.validate_command``): which fields it
carries and what each holds. ``play`` then decides whether the move is legal."""

from __future__ import annotations

from games.rules.shapes import NAME, SPACE, WHOLE_NUMBER, CommandShapes, optional

COMMAND_SHAPES: CommandShapes = {
    "place_castle": {"rank": WHOLE_NUMBER, "space": SPACE},
    "draw_tile": {},
    # "tile" only in No Luck, where the player names a face-up tile.
    "place_tile": {"tile": optional(NAME), "space": SPACE},
    "place_starting_tile": {"space": SPACE},
    "pass": {},
}
