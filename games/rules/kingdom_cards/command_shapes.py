"""The shape of every Kingdom Cards command (see ``base.validate_command``): which fields
it carries and what each holds. ``decide`` then decides whether the move is legal."""

from __future__ import annotations

from games.rules.shapes import NAME, NAMES, WHOLE_NUMBER, CommandShapes

COMMAND_SHAPES: CommandShapes = {
    "challenge": {"seat": WHOLE_NUMBER},
    "bid": {"card": NAME},
    "give_up": {},
    "lay_group": {"cards": NAMES},
    "return_group": {"tier": WHOLE_NUMBER},
    # single cards: an incomplete group is laid or taken back one card at a time
    "lay_card": {"card": NAME},
    "return_card": {"card": NAME},
    "lay_treasure": {"card": NAME},
    "return_treasure": {"card": NAME},
    "keep_kingdom": {},
    "end_last_turn": {},
}
