"""The state of a game of Kingdom Cards: plain lists, strings and ints, so that copies and
JSON snapshots are cheap and exact."""

from __future__ import annotations

from dataclasses import dataclass, field, fields
from typing import Any

from games.rules.kingdom_cards.battle import LOCKED_PHASES
from games.rules.kingdom_cards.kingdom import Groups, bonus_halves

# Phases besides the battle steps (see battle.py).
DRAW = "draw"  # between turns, before the challenger's card reaches the centre
CHALLENGE = "challenge"  # the challenger names a defender
RESOLVED = "resolved"  # a battle just ended (only ever seen inside one decision)
LAST_ROUND = "last_round"  # the source is exhausted: everyone's last turn
FINISHED = "finished"

# DECISION: at most this many kingdom changes per seat per turn (and in the last round).
KINGDOM_CHANGES_PER_TURN = 8


@dataclass(slots=True)
class KingdomCardsState:
    players: int
    options: dict[str, Any]
    # The source, face down: the top card is the LAST item (secret order).
    source: list[str] = field(default_factory=list)
    hands: list[list[str]] = field(default_factory=list)
    # Per seat: three slots (people, army, court), each None or a group of three ids.
    groups: list[Groups] = field(default_factory=list)
    # Per seat: the Treasures laid in the kingdom.
    treasures: list[list[str]] = field(default_factory=list)
    centre: str | None = None
    turn: int = 0
    challenger: int = 0
    defender: int | None = None
    phase: str = DRAW
    defender_bids: list[str] = field(default_factory=list)
    challenger_bids: list[str] = field(default_factory=list)
    # Kingdom changes each seat may still make this turn (0 after "keep_kingdom").
    changes_left: list[int] = field(default_factory=list)
    # Last round: who has ended their last turn.
    last_turn_done: list[bool] = field(default_factory=list)
    # Seats that completed a kingdom (the instant win); empty otherwise.
    completed: list[int] = field(default_factory=list)
    end_reason: str | None = None

    @property
    def seats(self) -> range:
        return range(self.players)

    @property
    def finished(self) -> bool:
        return self.phase == FINISHED

    def locked(self, seat: int) -> bool:
        """Locked in a battle: from the defender's first bid until the battle ends."""
        return self.phase in LOCKED_PHASES and seat in (self.challenger, self.defender)

    def bonus(self, seat: int) -> int:
        return bonus_halves(self.groups[seat], self.treasures[seat])

    def cards_held(self, seat: int) -> int:
        """Hand plus kingdom (plus cards still on the table in an unfinished battle)."""
        held = len(self.hands[seat]) + len(self.treasures[seat])
        held += sum(len(g) for g in self.groups[seat] if g is not None)
        if seat == self.defender:
            held += len(self.defender_bids)
        if seat == self.challenger:
            held += len(self.challenger_bids)
        return held


_FIELDS = tuple(f.name for f in fields(KingdomCardsState))


def copy_state(state: KingdomCardsState) -> KingdomCardsState:
    """An independent copy (a few short lists; far faster than deepcopy)."""
    return KingdomCardsState(
        players=state.players,
        options=dict(state.options),
        source=list(state.source),
        hands=[list(h) for h in state.hands],
        groups=[[None if g is None else list(g) for g in seat] for seat in state.groups],
        treasures=[list(t) for t in state.treasures],
        centre=state.centre,
        turn=state.turn,
        challenger=state.challenger,
        defender=state.defender,
        phase=state.phase,
        defender_bids=list(state.defender_bids),
        challenger_bids=list(state.challenger_bids),
        changes_left=list(state.changes_left),
        last_turn_done=list(state.last_turn_done),
        completed=list(state.completed),
        end_reason=state.end_reason,
    )


def dump_state(state: KingdomCardsState) -> dict[str, Any]:
    copied = copy_state(state)
    return {name: getattr(copied, name) for name in _FIELDS}


def load_state(data: dict[str, Any]) -> KingdomCardsState:
    state = KingdomCardsState(**{name: data[name] for name in _FIELDS})
    # A fresh copy, so the caller's dict is never shared with the state.
    return copy_state(state)
