"""Kingdom Cards — the card game of battles for a people, an army and a court.

Ruleset key ``kingdom-cards``, 3–5 players (table option ``allow_two_players`` allows 2).
Source: the Board Game Arena help page for "Kingdoms" (the card game by Rogier J.C.
Ooijevaar, 2016); the engine's choices where it is open: docs/rules-choices.md.

Modules: ``cards`` (the 84 cards, roles, tiers, bonuses), ``kingdom`` (groups, flags, the
bonus, the completion check), ``battle`` (attack values, the raise, the second card, the
result), ``ranking`` (the final ranking), ``state`` (the state and its snapshots),
``evolve`` (events to state), ``decide`` (commands to events), ``steps`` (the facts that
follow one another: draw, battle result, exchange, auto-completion, next turn), ``legal``
(``to_act`` and ``legal_commands``), ``view`` (the view, the move log, determinization),
``playout`` (fast random playouts for benchmarks and search bots).

A turn: the challenger's card is drawn into the centre automatically (event
``card_drawn``); the challenger names a defender; the defender bids (card value + bonus);
the challenger counterattacks; when the challenger is equal or higher the defender raises
with the same colour or gives up; after a raise the challenger must add a second card
(same colour adds, another colour replaces the first). The higher attack wins the centre
card, equal values go to the challenger, and the two take each other's bid cards.

``to_act`` lists every seat that may act: the one the battle waits for (the view's
``awaiting``) plus every seat the rules give a window to change its kingdom, whatever its
hidden hand holds (``to_act`` and every public field depend on public facts only). Only
the battle players' commands move the game on. ``RULESET.apply`` is the fast path
(decide and fold in place).

All bonuses and attack values are in half-points (people 1, army 2, court 4, Treasure 1 in
the kingdom; a card bids twice its value, a Treasure 30): no floats anywhere.

DECISIONS (the spec's, and ours where the published rules are silent):

- Deck: "3 red, yellow and blue sets from 1 to 9" means three copies of every colour and
  value (81 cards) plus 3 Treasures: 84 cards; ids "R7b" (red 7, copy b), "T1".."T3".
- A kingdom holds at most one group per tier; all its groups share one flag (the colours
  of the lowest, middle and highest card); 27 flags are possible.
- Kingdom changes: lay a group (its three cards listed lowest first) in an empty tier,
  return a tier's cards (by tier: 1 people, 2 army, 3 court), lay or return a single card
  (``lay_card`` / ``return_card``), lay or return a Treasure. A tier holds at most one
  card of each of its values; one or two cards are an incomplete group: no bonus, no
  flag, any colours; the card that completes a group must fit the flag of the others.
  When the defender bids its first card, both battle players' incomplete groups return
  to their hands (``incomplete_groups_returned``), before the challenger must counter.
  ``legal_commands`` lists every combination of card copies (no canonicalisation);
  ``decide`` accepts exactly those.
- A player not locked in a battle may change their kingdom at any time, but at most 8
  times per turn (``KINGDOM_CHANGES_PER_TURN``; the count resets when the turn passes and
  when the last round starts). ``keep_kingdom`` closes the seat's changes for the rest of
  the turn, so a seat with nothing it wants to change can leave ``to_act``; it is
  offered in every window, even when the hand allows no change (that would tell the
  hand). Changes made by ``auto_complete`` cost nothing. This keeps every game finite
  whichever seat acts.
- The two battle players may change their kingdoms until the defender's first bid; from
  that bid both are locked until the battle ends.
- The draw is automatic when a turn starts; seat 0 is the first challenger (the service
  seats players at random). The challenger must challenge; any other seat may be named.
- A Treasure bids 15 and has no colour: nothing can raise on it, it cannot itself be a
  raise, and as the challenger's second card it always counts as a different colour (so
  does any second card after a Treasure as the challenger's first card).
- A raise is legal only if it makes the defender's total higher than the challenger's.
  The defender may give up only at that step (a counter below the defender's attack ends
  the battle at once, won by the defender). After a raise the challenger must add a
  second card; there is no giving up for the challenger.
- An empty-handed defender keeps its window: it may take cards back from its kingdom
  and bid them. Only a defender with no card in hand that cannot take one back (an empty
  kingdom, no change left, or after ``keep_kingdom``) loses at once (nothing is exchanged);
  a challenger with no card to counter, or to add after a raise, loses at once, and the
  bid cards already on the table are exchanged as usual.
- The instant win: the first player to hold a people, an army and a court under one flag
  wins at once and the game ends (``kingdom_completed`` then ``game_ended``); a battle in
  progress is abandoned, its bid cards count as held by their bidders and the centre card
  by no one. Players who complete at the same moment share the win.
- Table option ``auto_complete`` (default on): after the deal (every seat) and after each
  battle (its two players) — the only moments a player's cards change — a player whose
  hand and kingdom can make a complete kingdom has it laid automatically and wins. The
  engine keeps as many already-laid groups as possible, then takes the first flag in
  RRR..BBB order and the lowest copies; Treasures stay where they are.
- The last round: when a turn would start with the source exhausted, every player has one
  last turn, taken simultaneously: no battle (there is no centre card), up to 8 kingdom
  changes, then ``end_last_turn``, after which that kingdom is final. When all have
  ended, the ranking decides. Completing a kingdom in the last round still wins at once.
- Ranking: complete kingdoms share first place whatever their bonus; the others rank by
  bonus, then by cards held (hand + kingdom, plus their own bids if a battle was
  abandoned). ``Outcome.scores`` are the bonuses in half-points; ``breakdown`` gives
  ``complete``, ``bonus_halves`` and ``cards_held``.
- The winner of a battle takes the centre card into the hand. Hands are kept sorted (by
  value, colour, copy), so their order tells nothing.
- Keys of a command other than those it needs are ignored.
"""

from __future__ import annotations

import random
from typing import Any

from games.rules import register
from games.rules.base import Command, Event, IllegalCommand, Option, Outcome, Ruleset
from games.rules.kingdom_cards import decide as _decide
from games.rules.kingdom_cards import legal as _legal
from games.rules.kingdom_cards import steps as _steps
from games.rules.kingdom_cards import view as _view
from games.rules.kingdom_cards.command_shapes import COMMAND_SHAPES
from games.rules.kingdom_cards.evolve import evolve as _evolve
from games.rules.kingdom_cards.ranking import final_outcome
from games.rules.kingdom_cards.state import (
    KingdomCardsState,
    copy_state,
    dump_state,
    load_state,
)


class KingdomCards(Ruleset):
    key = "kingdom-cards"
    version = "1.0"
    name = "Kingdom Cards"
    min_players = 3
    max_players = 5
    command_shapes = COMMAND_SHAPES
    options = (
        Option(
            "allow_two_players", False, "Allow a game of two players.", label="Allow two players"
        ),
        Option(
            "auto_complete",
            True,
            "When a player's cards can complete a kingdom, lay it automatically: they win.",
            label="Lay a complete kingdom automatically",
        ),
    )

    def seat_range(self, options: dict[str, Any]) -> tuple[int, int]:
        low = 2 if (options or {}).get("allow_two_players") else self.min_players
        return low, self.max_players

    # ---- the contract ------------------------------------------------------------------
    def setup(self, options: dict[str, Any], players: int, rng: random.Random) -> list[Event]:
        options = self.clean_options(options)
        low, high = self.seat_range(options)
        if not isinstance(players, int) or not low <= players <= high:
            raise IllegalCommand(
                "bad_player_count", f"Kingdom Cards needs {low} to {high} players."
            )
        return _steps.setup_events(options, players, rng)

    def evolve(self, state: KingdomCardsState | None, event: Event) -> KingdomCardsState:
        return _evolve(state, event)

    def decide(
        self, state: KingdomCardsState, seat: int, command: Command, rng: random.Random
    ) -> list[Event]:
        if state.finished:  # answered before the copy: nothing to decide
            raise IllegalCommand("game_over", "This game is over.")
        return _decide.apply_command(copy_state(state), seat, command, rng)

    def apply(
        self, state: KingdomCardsState, seat: int, command: Command, rng: random.Random
    ) -> list[Event]:
        """The fast path: decide and fold the events into ``state`` itself (no copy).

        Same events as ``decide``; on IllegalCommand the state is left untouched.
        """
        return _decide.apply_command(state, seat, command, rng)

    def legal_commands(self, state: KingdomCardsState, seat: int) -> list[Command]:
        return _legal.legal_commands(state, seat)

    def to_act(self, state: KingdomCardsState) -> set[int]:
        return _legal.to_act(state)

    def awaited(self, state: KingdomCardsState) -> set[int]:
        return _legal.awaited(state)

    def view(self, state: KingdomCardsState, seat: int | None) -> dict[str, Any]:
        return _view.view(state, seat)

    def secrets(self, state: KingdomCardsState) -> dict[int, dict[str, Any]]:
        return {s: {"hand": list(state.hands[s])} for s in state.seats}

    def outcome(self, state: KingdomCardsState) -> Outcome | None:
        return final_outcome(state) if state.finished else None

    def dump(self, state: KingdomCardsState) -> dict[str, Any]:
        return dump_state(state)

    def load(self, data: dict[str, Any]) -> KingdomCardsState:
        return load_state(data)

    def copy_state(self, state: KingdomCardsState) -> KingdomCardsState:
        return copy_state(state)

    # ---- optional parts ----------------------------------------------------------------
    def describe_event(self, event_type: str, data: dict[str, Any], names: dict[int, str]) -> str:
        return _view.describe_event(event_type, data, names)

    def determinize(
        self, state: KingdomCardsState, seat: int | None, rng: random.Random
    ) -> KingdomCardsState:
        return _view.determinize(state, seat, rng)


RULESET = register(KingdomCards())
