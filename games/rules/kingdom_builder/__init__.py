"""Kingdom Builder (base game), ruleset key ``kingdom-builder``.

Modules: ``board`` (sections, rotation, grid geometry), ``terrain`` (kinds and the 25
cards), ``placement`` (the adjacency rule), ``locations`` (one function per tile),
``cards`` (one function per Kingdom Builder card), ``scoring`` (end-of-game scoring, also
behind ``manage.py score``), ``deck`` (terrain cards and draw variants), ``turn`` (the
turn: commands, tiles, end of game), ``state`` (the fold, snapshots), ``view``,
``opening`` (options and setup).

Decisions (where the spec marks one or the published rules are silent):
- No empty hex of the card's terrain (publisher rule): the card is removed from the game
  and the top card of the draw pile is played in its place, in every card variant; in
  ``choose`` the player picks another terrain. The check is made whenever the player is
  due to build: at the start of the turn (before any tile) and after each placement. If
  no card is left anywhere, the rest of the mandatory action is void (also for a player
  whose draw failed). Option ``designer_no_terrain``: the designer's rule, the remaining
  placements go on any of the 5 terrains (adjacent if possible).
- The turn ends by itself once the mandatory action is done and no held tile can be used;
  otherwise ``end_turn`` ends it.
- Tiles of one kind are alike: ``use_tile`` names the kind only, the engine uses one that
  is usable. When a location is no longer touched and the player holds two of its kind in
  different states (taken this turn / used this turn / usable), the player chooses which
  to give up (``discard_tile`` by the hex the tile came from); alike ones go at once.
- A move takes the new location's tile before losing the old one (the player may then
  keep the better of two alike tiles).
- A settlement cannot "move" onto its own hex; a Barn/Harbor settlement whose only
  eligible hex is where it stands cannot be picked (it would have to be put back).
- Tower, Tavern, Oracle, Farm, Oasis, Barn and Harbor obey the adjacency rule; Paddock
  does not. Tavern builds on any buildable terrain just past either end of a line of ≥3.
- Terrain variants: draft and hand choose at the start of the turn (draft: any face-up
  card or the unknown top card, the row refilled at once); sceadeau keeps the second
  opening card and, at the start of turn 2, plays it or swaps it for the top card (played
  at once). ``choose`` offers only terrains with an empty hex. Draft size 2–5 (default 3),
  hand size 2–4 (default 3).
- Lords: per sector, 12 to every player with the most, 6 to every player with the second
  distinct count; counts of 0 take part (an empty sector pays 12 to everybody).
- Merchants: each group scores the location/castle hexes it touches when it touches two
  or more; a hex scores once.
- End: the round finishes after the turn in which someone placed the last settlement
  (seat before the start player plays last). Ties share the rank (no tie-break).
- Board option ``first_game`` also fixes the cards unless ``cards`` is given.
- A settlement moved onto water by Harbor counts for every card like any other, except
  that it earns nothing for Fishermen.
- Secrets in events: the draw pile's order only in ``private[-1]`` (server only) of
  ``game_set_up`` and ``terrain_deck_reshuffled``; dealt and drawn cards only in
  ``private[seat]``. The use of a tile is the ``tile`` field of ``settlement_built`` /
  ``settlement_moved`` (``null`` for the mandatory action).
- Room for the expansions: the board data holds all 16 sections, ``TILES`` is a registry,
  ``state.gold`` keeps gold earned during play (0 in the base game), nomad spaces already
  count as special hexes for Workers and Merchants.
"""

from __future__ import annotations

import random
from typing import Any

from games.rules import register
from games.rules.base import Command, Event, Outcome, Ruleset
from games.rules.kingdom_builder import opening, state, turn, view
from games.rules.kingdom_builder.scoring import score_position as _score_position


class KingdomBuilder(Ruleset):
    key = "kingdom-builder"
    version = "1.0"
    name = "Kingdom Builder"
    min_players = 2
    max_players = 4
    options = opening.OPTIONS

    def check_options(self, options: dict[str, Any]) -> dict[str, Any]:
        return opening.check_options(options)

    def setup(self, options: dict[str, Any], players: int, rng: random.Random) -> list[Event]:
        return opening.opening(self.clean_options(options), players, rng)

    def evolve(self, s: state.State | None, event: Event) -> state.State:
        return state.evolve(s, event)

    def decide(
        self, s: state.State, seat: int, command: Command, rng: random.Random
    ) -> list[Event]:
        return turn.decide(s, seat, command, rng)

    def legal_commands(self, s: state.State, seat: int) -> list[Command]:
        return turn.legal_commands(s, seat)

    def to_act(self, s: state.State) -> set[int]:
        return set() if s.finished else {s.active}

    def view(self, s: state.State, seat: int | None) -> dict[str, Any]:
        return view.view(s, seat)

    def outcome(self, s: state.State) -> Outcome | None:
        return Outcome.from_json(s.outcome) if s.outcome is not None else None

    def dump(self, s: state.State) -> dict[str, Any]:
        return state.dump(s)

    def load(self, data: dict[str, Any]) -> state.State:
        return state.load(data)

    def copy_state(self, s: state.State) -> state.State:
        return state.copy_state(s)

    # ---- optional parts -------------------------------------------------------------------
    def describe_event(self, event_type: str, data: dict[str, Any], names: dict[int, str]) -> str:
        return view.describe_event(event_type, data, names)

    def determinize(self, s: state.State, seat: int | None, rng: random.Random) -> state.State:
        return state.determinize(s, seat, rng)

    def score_position(self, position: dict[str, Any]) -> dict[str, Any]:
        return _score_position(position)


RULESET = register(KingdomBuilder())
