"""Kingdom Builder with the Nomads and Crossroads expansions, ruleset key ``kingdom-builder``.

Modules: ``board`` (sections, rotation, grid geometry, terrain areas), ``terrain`` (kinds
and the 25 cards), ``placement`` (the adjacency rule, empty hexes, warriors' guard),
``locations`` / ``nomad_locations`` / ``crossroads_locations`` (one function per location
tile, its targets), ``tiles`` (the registry: effect and name of every tile),
``extra_actions`` (using location tiles), ``nomads`` (nomad tiles and the multi-step
actions), ``arrival`` (taking and losing tiles, in-play card gold, end trigger), ``cards``
(one function per Kingdom Builder card), ``tasks`` (the 6 Crossroads tasks), ``scoring``
(end-of-game scoring, also behind ``manage.py score``), ``deck`` (terrain cards, draw
variants, the Crossroads extra card), ``turn`` (commands, timing, end of turn and game),
``state`` + ``expansion_events`` (the fold), ``snapshot`` (copy, dump/load,
determinize), ``view``, ``checks`` (input checking), ``opening`` (options and setup).

Table options: ``nomads`` (its 4 sections and 3 cards join the random draws, nomad tiles,
25 stone walls, 2-5 players), ``crossroads`` (its 4 sections join the random draw, one
task per Crossroads section laid), ``crossroads_pieces_score`` (needs ``crossroads``).
Position files for ``manage.py score kingdom-builder``: ``grid`` (20 strings of 20
letters: G C D F T W M, S castle, L location, N nomad space, ``.`` any buildable),
``settlements`` (``{"0": [[row, col], ...]}``; W and M allowed: Harbor, Donation) and
``cards`` (base and Nomads cards); optional: ``gold`` (``{"0": {"families": 4,
"treasure": 3}}``, gold earned during play: what the Nomads cards and Treasure paid),
``tasks`` (Crossroads task keys in play), ``city_halls`` (``{"0": [row, col]}``, the
centre: it and its 6 neighbours count as 7 settlements), ``walls`` (``[[row, col]...]``,
they only fill hexes), ``pieces`` (``{"0": {"warriors": [[r, c]...], "wagon": [r, c],
"ship": [r, c]}}``) and ``pieces_score`` (true: pieces count as settlements).

Decisions of the base game (where the spec marks one or the published rules are silent):
- No empty hex of the card's terrain (publisher rule): the card is removed from the game
  and the top card of the draw pile is played in its place, in every card variant; in
  ``choose`` the player picks another terrain. The check is made whenever the player is
  due to build: at the start of the turn (before any tile) and after each placement. If
  no card is left anywhere, the rest of the mandatory action is void (also for a player
  whose draw failed). Option ``designer_no_terrain``: the designer's rule, the remaining
  placements go on any of the 5 terrains (adjacent if possible).
- The turn ends by itself once the mandatory action is done and no held tile (location or
  nomad) can be used; otherwise ``end_turn`` ends it.
- Tiles of one kind are alike: ``use_tile`` names the kind only, the engine uses one that
  is usable. When a location is no longer touched and the player holds two of its kind in
  different states (taken this turn / used this turn / usable), the player chooses which
  to give up (``discard_tile`` by the hex the tile came from); alike ones go at once.
- A move takes the new location's tile before losing the old one (the player may then
  keep the better of two alike tiles).
- A settlement cannot "move" onto its own hex; a Barn/Harbor settlement whose only
  eligible hex is where it stands cannot be picked (it would have to be put back).
- Tower, Tavern, Oracle, Farm, Oasis, Barn and Harbor obey the adjacency rule; Paddock
  does not. Tavern builds on any buildable terrain just past either end of a line of ≥3
  settlements (city halls, wagons and ships do not make a line).
- Terrain variants: draft and hand choose at the start of the turn (draft: any face-up
  card or the unknown top card, the row refilled at once); sceadeau keeps the second
  opening card and, at the start of turn 2, plays it or swaps it for the top card (played
  at once). ``choose`` offers only terrains with a free hex. Draft size 2–5 (default 3),
  hand size 2–4 (default 3).
- Lords: per sector, 12 to every player with the most, 6 to every player with the second
  distinct count; counts of 0 take part (an empty sector pays 12 to everybody).
- Merchants: each group scores the location/castle hexes it touches when it touches two
  or more; a hex scores once. Workers and Merchants count nomad spaces too.
- End: the round finishes after the turn in which someone placed the last settlement
  (seat before the start player plays last). Ties share the rank (no tie-break).
- Board option ``first_game`` also fixes the cards unless ``cards`` is given.
- A settlement moved onto water by Harbor (or built there by a Donation) counts for every
  card like any other, except that it earns nothing for Fishermen.
- Secrets in events: the draw pile's order only in ``private[-1]`` (server only) of
  ``game_set_up`` and ``terrain_deck_reshuffled``; dealt and drawn cards only in
  ``private[seat]``. The use of a tile is the ``tile`` field of ``settlement_built`` /
  ``settlement_moved`` (``null`` for the mandatory action).

Decisions of the Nomads expansion:
- A random board draws its 4 sections from the base sections and those of every
  expansion in play; with Nomads the 3 cards are drawn from all 13. One random nomad tile
  of the 15 lies face up on each nomad space laid (public in ``game_set_up``); the others
  stay in the box.
- Nomad tiles are taken by the first settlement built, moved or laid (city hall) next to
  the space. They are used like location tiles, before or after the mandatory action
  (never in its middle), in the holder's next turn only; unused ones expire at the end of
  that turn. Treasure pays its 3 gold at once when taken (nothing to choose).
- Outpost (key ``nomad_outpost``) is armed with ``use_nomad_tile`` at any time of the turn
  (even between two mandatory builds) while a build is still to come; the next settlement
  built from the supply (mandatory, tile or Donation) ignores the adjacency rule. Moves are
  not builds; walls, pieces and the city hall keep their own rules.
- Donation (key ``donation_<terrain>``): 3 builds on that terrain (water and mountain
  too), adjacent if possible; once begun it goes on until done or impossible.
- Resettlement: up to 4 single steps in total (one settlement or several), each onto a
  neighbouring empty hex of the 5 terrains not next to a warrior; no adjacency rule;
  every step is a move (tiles taken and lost); ``finish_action`` stops early.
- Sword: the Sword player picks one settlement (not a city hall) of each opponent that
  has one, in turn order; it goes back to its owner's supply; that opponent loses the
  tile of a location it no longer touches (no choice asked outside its turn). A game end
  already triggered stays triggered.
- Quarry: 1 or 2 walls, each on an empty hex of the card's terrain next to one of the
  player's settlements (required); the second one (``place_wall``) or ``finish_action``.
- Caravan slides until the next hex is not an empty hex of the 5 terrains, or is off the
  board; it must move; the hex where it stops must not lie next to a warrior.
- Village: an empty hex of the 5 terrains next to at least 3 of the player's settlements.
- Families, Ambassadors, Shepherds pay at once (``gold_earned``) for settlements built,
  never moved (nor the city hall): Families when the third mandatory settlement makes 3
  consecutive hexes on one axis; Ambassadors once per settlement touching another
  player's settlement or city hall; Shepherds when no empty hex of the built-on terrain
  touches it.

Decisions of the Crossroads expansion:
- "Your settlements" for every adjacency check (adjacent-if-possible, Quarry, Village, the
  city hall's contact) means settlements, city-hall hexes, the wagon and the ship;
  location and nomad tiles are taken and kept by settlements and city halls only.
- Nothing but wagons and ships may be put (built, moved, laid, placed) on a hex next to a
  warrior: no settlement, city hall, wall or warrior. Such hexes are no candidates at all,
  so the adjacency rule is judged among the others, and a terrain whose free hexes all lie
  next to warriors counts as exhausted (no-terrain rule).
- City Hall: once per game; its 7 hexes are on the board, empty, of the 5 terrains, none
  next to a warrior, one of them next to the player's settlements (required). It counts
  as 7 settlements for cards, castles and tasks (a city hall alone is a Fortress), takes
  the tiles of locations and nomad spaces it touches, never moves, is never a Sword's
  target.
- Barracks: place one of your 2 warriors (adjacent if possible) or take one back; Wagon
  and Lighthouse: place (adjacent if possible), move up to 3 steps through empty hexes
  (no adjacency rule), or take back; once per turn each, like every tile.
- Crossroads tile: at the end of each turn in which the player holds one (two do not add
  up) an extra secret card is drawn; next turn the player chooses; unplayed cards are
  discarded face up at the end of it. In ``hand`` the hand is one card larger; in
  ``choose`` the tile does nothing; in ``draft`` the extra card may be played instead.
- Tasks are checked on the final board; each pays once per player. Home Country: any
  connected area of one terrain (the 5 terrains, water, mountain) entirely covered by the
  player; Place of Refuge: every neighbour on the board of a location, castle or nomad
  space; Road: axes north-east and north-west only.
- Warriors, wagons and ships leave the board before scoring (no event: they just do not
  count); ``crossroads_pieces_score`` counts them as settlements for cards and tasks.
- A wagon may also stand on a mountain; the ship on water never shares a hex with a
  settlement that Harbor or a Donation put there.
"""

from __future__ import annotations

import random
from typing import Any

from games.rules import register
from games.rules.base import Command, Event, IllegalCommand, Outcome, Ruleset
from games.rules.kingdom_builder import opening, snapshot, state, turn, view
from games.rules.kingdom_builder.command_shapes import COMMAND_SHAPES
from games.rules.kingdom_builder.scoring import score_position as _score_position


class KingdomBuilder(Ruleset):
    key = "kingdom-builder"
    version = "1.1"
    name = "Kingdom Builder"
    min_players = 2
    max_players = 5  # with Nomads; without it ``seat_range`` gives 2–4
    command_shapes = COMMAND_SHAPES
    bots_skip = frozenset({"undo"})
    options = opening.OPTIONS

    def check_options(self, options: dict[str, Any]) -> dict[str, Any]:
        return opening.check_options(options)

    def seat_range(self, options: dict[str, Any]) -> tuple[int, int]:
        return opening.seat_range(options)

    def setup(self, options: dict[str, Any], players: int, rng: random.Random) -> list[Event]:
        # A table recorded before undo existed has no "undo" option: it plays without; one
        # recorded before "confirm_end_turn" ended a finished turn at once.
        options = self.clean_options({"undo": False, "confirm_end_turn": False, **(options or {})})
        low, high = self.seat_range(options)
        if not isinstance(players, int) or isinstance(players, bool) or not low <= players <= high:
            raise IllegalCommand(
                "bad_player_count", f"Kingdom Builder needs {low} to {high} players here."
            )
        return opening.opening(options, players, rng)

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

    def secrets(self, s: state.State) -> dict[int, dict[str, Any]]:
        return {p: {"terrain_cards": list(s.hands[p])} for p in range(s.players)}

    def outcome(self, s: state.State) -> Outcome | None:
        return Outcome.from_json(s.outcome) if s.outcome is not None else None

    def dump(self, s: state.State) -> dict[str, Any]:
        return snapshot.dump(s)

    def load(self, data: dict[str, Any]) -> state.State:
        return snapshot.load(data)

    def copy_state(self, s: state.State) -> state.State:
        return state.copy_state(s)

    # ---- optional parts -------------------------------------------------------------------
    def describe_event(self, event_type: str, data: dict[str, Any], names: dict[int, str]) -> str:
        return view.describe_event(event_type, data, names)

    def determinize(self, s: state.State, seat: int | None, rng: random.Random) -> state.State:
        return snapshot.determinize(s, seat, rng)

    def score_position(self, position: dict[str, Any]) -> dict[str, Any]:
        return _score_position(position)


RULESET = register(KingdomBuilder())
