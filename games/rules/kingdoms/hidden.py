"""Hidden information: each player's starting tile until placed, and the supply's
order. ``determinize`` re-deals what a seat cannot see, for search bots."""

from __future__ import annotations

import random

from games.rules.kingdoms.state import KingdomsState, copy_state


def determinize(state: KingdomsState, seat: int | None, rng: random.Random) -> KingdomsState:
    """A copy in which the supply and the other seats' starting tiles are re-dealt at
    random from the tiles ``seat`` has not seen (its own starting tile, the board and a
    drawn tile are known and kept). A spectator (None) knows no starting tile."""
    copy = copy_state(state)
    if state.options["no_luck"]:
        return copy  # every tile is face up: nothing is hidden
    others = [s for s in state.seats if s != seat and state.starting[s] is not None]
    unseen = list(state.supply) + [t for s in others if (t := state.starting[s]) is not None]
    rng.shuffle(unseen)
    for s in others:
        copy.starting[s] = unseen.pop()
    copy.supply = unseen
    return copy
