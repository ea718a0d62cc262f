"""Reiner Knizia's Kingdoms (ruleset key ``kingdoms``), 2-4 players.

Rules: the 2011 Fantasy Flight rulebook, with the Wizard (``wizard=False`` is the
22-tile 2002 edition); the engine's choices where it is open: docs/rules-choices.md.
Where each rule lives:

- ``tiles``    the 23 (22) tiles and their stable ids: ``"+1a"``..``"+6b"``, ``"-1"``..
  ``"-6"``, ``"mountain_a"``, ``"mountain_b"``, ``"dragon"``, ``"gold_mine"``, ``"wizard"``.
- ``castles``  castle sets, allotment per player count, castles coming off between epochs.
- ``board``    the 5x6 grid, lines, adjacency, Mountains splitting lines into parts.
- ``scoring``  scoring of a board, shared by the engine and ``manage.py score``.
- ``play``     a turn: commands, validation, legal commands, passing.
- ``epochs``   an epoch's start, end, scoring, the next start player, the end of the game.
- ``variants`` the table options (Wizard, Down to the Last Castle, No Luck, Score as You Go).
- ``hidden``   starting tiles and the supply order; ``determinize``.
- ``events``   the fold; ``view`` what each viewer sees and the move log in words.

Commands::

    {"type": "place_castle", "rank": 2, "space": [r, c]}
    {"type": "draw_tile"}                      then  {"type": "place_tile", "space": [r, c]}
    {"type": "place_starting_tile", "space": [r, c]}
    {"type": "place_tile", "tile": "+3a", "space": [r, c]}     (No Luck only)
    {"type": "pass"}                           (legal only when nothing else is)

Spaces are ``[row, column]``, 0-based, row 0 at the top. Commands must carry exactly
their fields; anything extra is refused (``unexpected_field``).

DECISIONS (where the published rules are silent or the engine must choose):

- Drawing and placing a tile are two commands on one turn (the player must see the tile
  before choosing its space). The drawn tile is public from the draw on: it goes face up
  at once and nobody else can act meanwhile. Between the two the only legal command is
  ``place_tile``; the turn ends when it is placed.
- The supply's order lives only in ``private[-1]`` of ``epoch_started`` (never sent to a
  viewer); each starting tile only in its holder's private part. Starting tiles are
  dealt from the top of each fresh shuffle, one per seat in seat order.
- Pass is an explicit command, legal exactly when the seat to act has no castle, no
  starting tile and the supply is empty (and then the only legal command).
- An epoch ends as soon as no space is empty OR nobody can act. The second never
  happens in the standard game: an epoch always has >= 30 pieces. Epoch 3 is the
  leanest case (every rank 2-4 castle spent earlier): rank-1 castles 2x4 / 3x3 / 4x2 =
  8 / 9 / 8 plus 23 tiles (22 without the Wizard) = 31 / 32 / 31 (30 / 31 / 30) >= 30,
  and every piece can always be placed while a space is empty. It does happen in Down
  to the Last Castle (its final epoch) and the engine handles it for every mode: empty
  spaces count 0.
- Start player of the next epoch: most gold; on a tie, the first tied player counting
  clockwise (seat+1, seat+2, ...) from the previous epoch's start player, THAT PLAYER
  INCLUDED: a tied previous start player starts again.
- The variants are independent bool options that combine freely (see ``variants``).
- Score as You Go: a line is scored the moment it fills (row before column when one
  placement fills both), with the pieces on the board at that moment (a Wizard placed
  later beside one of its castles does not rescore it). Lines still unscored at the
  epoch's end (only possible in Down to the Last Castle's final epoch) are scored then.
  ``line_scored`` events carry each scoring; ``epoch_scored`` still closes the epoch.
- Down to the Last Castle: the game ends after the epoch in which some player placed
  the last castle in their hand (``final_epoch`` in the view). Unplaced castles are kept
  for the next epoch; starting tiles are used as in the standard game.
- No Luck: the face-up supply is public (``supply.face_up``); nobody holds a starting
  tile; ``place_tile`` names the tile. Two copies of a resource are distinct ids and
  both are legal choices.
- Gold may go negative; the final ranking groups tied players (shared victory).
- Several Wizards cannot occur, but ``score_position`` would give +1 per adjacent one.
"""

from __future__ import annotations

import random
from typing import Any

from games.rules import register
from games.rules.base import Command, Event, Outcome, Ruleset
from games.rules.kingdoms import epochs, events, hidden, play, scoring
from games.rules.kingdoms.command_shapes import COMMAND_SHAPES
from games.rules.kingdoms.state import KingdomsState, copy_state, dump_state, load_state
from games.rules.kingdoms.variants import OPTIONS
from games.rules.kingdoms.view import describe_event, seat_view


class Kingdoms(Ruleset):
    key = "kingdoms"
    version = "1.0"
    name = "Kingdoms"
    min_players = 2
    max_players = 4
    command_shapes = COMMAND_SHAPES
    options = OPTIONS

    def setup(self, options: dict[str, Any], players: int, rng: random.Random) -> list[Event]:
        options = self.clean_options(options)
        if not self.min_players <= players <= self.max_players:
            raise ValueError(f"Kingdoms is for 2-4 players, not {players}")
        return epochs.setup_events(options, players, rng)

    def evolve(self, state: KingdomsState | None, event: Event) -> KingdomsState:
        return events.apply(state, event)

    def decide(
        self, state: KingdomsState, seat: int, command: Command, rng: random.Random
    ) -> list[Event]:
        return play.decide(state, seat, command, rng)

    def legal_commands(self, state: KingdomsState, seat: int) -> list[Command]:
        return play.legal_commands(state, seat)

    def to_act(self, state: KingdomsState) -> set[int]:
        return set() if state.turn is None or state.finished else {state.turn}

    def view(self, state: KingdomsState, seat: int | None) -> dict[str, Any]:
        return seat_view(state, seat)

    def secrets(self, state: KingdomsState) -> dict[int, dict[str, Any]]:
        # An unplaced starting tile; placed ones are public already.
        return {s: {"starting_tile": t} for s, t in enumerate(state.starting) if t is not None}

    def outcome(self, state: KingdomsState) -> Outcome | None:
        return epochs.final_outcome(state)

    def dump(self, state: KingdomsState) -> dict[str, Any]:
        return dump_state(state)

    def load(self, data: dict[str, Any]) -> KingdomsState:
        return load_state(data)

    def copy_state(self, state: KingdomsState) -> KingdomsState:
        return copy_state(state)

    # ---- optional parts ------------------------------------------------------------
    def describe_event(self, event_type: str, data: dict[str, Any], names: dict[int, str]) -> str:
        return describe_event(event_type, data, names)

    def determinize(
        self, state: KingdomsState, seat: int | None, rng: random.Random
    ) -> KingdomsState:
        return hidden.determinize(state, seat, rng)

    def score_position(self, position: dict[str, Any]) -> dict[str, Any]:
        return scoring.score_position(position)


KINGDOMS = register(Kingdoms())
