"""The shape of every Kingdom Builder command (see ``base.validate_command``): which
fields it carries and what each holds. ``turn`` then decides whether the move is legal."""

from __future__ import annotations

from games.rules.shapes import NAME, SPACE, CommandShapes, optional

COMMAND_SHAPES: CommandShapes = {
    # the terrain card of the turn (deck.CHOICE_COMMANDS, by the table's terrain draw)
    "choose_terrain": {"terrain": NAME},
    "take_terrain_card": {"terrain": NAME},
    "draw_terrain_card": {},
    "play_terrain_card": {"terrain": NAME},
    "swap_terrain_card": {},
    # the mandatory action, and Donation's settlements
    "build": {"hex": SPACE},
    # "from" only for the tiles that move a settlement (Paddock, Barn, Harbor...)
    "use_tile": {"tile": NAME, "from": optional(SPACE), "to": SPACE},
    "take_back_piece": {"tile": NAME, "hex": SPACE},
    "discard_tile": {"location": SPACE},
    "end_turn": {},
    # take back the last build or tile move of this turn (undo tables)
    "undo": {},
    # Nomads: a nomad tile, then the steps of its action
    "use_nomad_tile": {"tile": NAME},
    "move_settlement": {"from": SPACE, "to": SPACE},
    "remove_settlement": {"hex": SPACE},
    "place_wall": {"hex": SPACE},
    "finish_action": {},
}
