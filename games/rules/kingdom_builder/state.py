"""The game state, the fold of events into it, snapshots and determinization.

``evolve`` trusts recorded events: it applies them and never checks a rule (``turn.py``
decides). Coordinates in events are ``[row, col]`` lists; inside the state hexes are flat
indices. Secret parts: ``hands`` (each seat's own terrain cards) and ``draw_pile`` (order).
"""

from __future__ import annotations

import random
from typing import Any

from games.rules.base import Event
from games.rules.kingdom_builder.board import COLS, SIZE, Board, assemble
from games.rules.kingdom_builder.placement import EMPTY

SETTLEMENTS_EACH = 40

# Phases: choose_terrain (the turn's terrain card is not yet known), turn (the mandatory
# action and tiles), discard_tile (the player must pick which of two alike tiles to lose),
# finished.
CHOOSE_TERRAIN = "choose_terrain"
TURN = "turn"
DISCARD_TILE = "discard_tile"
FINISHED = "finished"


class State:
    __slots__ = (
        "options",
        "players",
        "layout",
        "board",
        "cards",
        "owner",
        "settlements",
        "supply",
        "gold",
        "tiles_left",
        "held",
        "taken_from",
        "draw_pile",
        "discard",
        "removed",
        "face_up",
        "hands",
        "start_player",
        "active",
        "turns",
        "card",
        "phase",
        "placed",
        "cut_short",
        "pending",
        "end_triggered",
        "outcome",
    )

    options: dict[str, Any]
    players: int
    layout: tuple[tuple[str, bool], ...]
    board: Board
    cards: list[str]
    owner: list[int]  # per hex: the seat whose settlement stands there, or EMPTY
    settlements: list[set[int]]
    supply: list[int]
    gold: list[int]  # gold earned during play (expansions); 0 in the base game
    tiles_left: dict[int, int]  # location hex -> tiles still on it
    # per seat: held tiles, each {"tile", "location" (hex taken from), "fresh", "used"}
    held: list[list[dict[str, Any]]]
    taken_from: list[set[int]]  # location hexes each seat ever took a tile from
    draw_pile: list[str]  # top first
    discard: list[str]  # top last
    removed: list[str]  # cards out of the game (no empty hex of their terrain)
    face_up: list[str]  # draft variant
    hands: list[list[str]]
    start_player: int
    active: int
    turns: list[int]  # turns started per seat
    card: str | None  # the terrain card played this turn (public)
    phase: str
    placed: int  # settlements placed by the mandatory action this turn
    cut_short: bool  # the mandatory action could not be completed
    pending: list[dict[str, Any]]  # tile losses awaiting the player's choice
    end_triggered: bool
    outcome: dict[str, Any] | None

    @property
    def finished(self) -> bool:
        return self.phase == FINISHED

    @property
    def terrain_draw(self) -> str:
        return self.options["terrain_draw"]

    def mandatory_done(self) -> bool:
        return self.placed >= 3 or self.cut_short or self.supply[self.active] <= 0

    def mandatory_in_progress(self) -> bool:
        """Between the first and the last settlement of the mandatory action."""
        return self.placed > 0 and not self.mandatory_done()


def _private(event: Event, seat: int) -> dict[str, Any]:
    """The event's private part for ``seat`` (keys may come back as strings from JSON)."""
    return event.private.get(seat) or event.private.get(str(seat)) or {}  # type: ignore[call-overload]


def _hex(pair: Any) -> int:
    return int(pair[0]) * COLS + int(pair[1])


def new_state(event: Event) -> State:
    data = event.public
    s = State()
    s.options = dict(data["options"])
    s.players = n = data["players"]
    s.layout = tuple((name, bool(rot)) for name, rot in data["layout"])
    s.board = assemble(s.layout)
    s.cards = list(data["cards"])
    s.owner = [EMPTY] * SIZE
    s.settlements = [set() for _ in range(n)]
    s.supply = [SETTLEMENTS_EACH] * n
    s.gold = [0] * n
    s.tiles_left = {_hex(loc["hex"]): loc["tiles"] for loc in data["locations"]}
    s.held = [[] for _ in range(n)]
    s.taken_from = [set() for _ in range(n)]
    s.draw_pile = list(_private(event, -1).get("draw_pile", []))
    s.discard = []
    s.removed = []
    s.face_up = list(data.get("face_up", []))
    s.hands = [list(_private(event, seat).get("hand", [])) for seat in range(n)]
    s.start_player = s.active = data["start_player"]
    s.turns = [0] * n
    s.card = None
    s.phase = CHOOSE_TERRAIN
    s.placed = 0
    s.cut_short = False
    s.pending = []
    s.end_triggered = False
    s.outcome = None
    return s


def _held_of(s: State, seat: int, location: int) -> dict[str, Any] | None:
    for tile in s.held[seat]:
        if tile["location"] == location:
            return tile
    return None


def _mark_used(s: State, seat: int, kind: str | None) -> None:
    if kind is None:
        return
    for tile in s.held[seat]:
        if tile["tile"] == kind and not tile["fresh"] and not tile["used"]:
            tile["used"] = True
            return


def evolve(s: State | None, event: Event) -> State:
    kind, data = event.type, event.public
    if s is None or kind == "game_set_up":
        return new_state(event)
    seat = data.get("seat", s.active)
    if kind == "turn_started":
        s.active = seat
        s.turns[seat] += 1
        s.card, s.phase, s.placed, s.cut_short = None, CHOOSE_TERRAIN, 0, False
        for tile in s.held[seat]:
            tile["fresh"] = tile["used"] = False
    elif kind == "terrain_card_revealed":
        terrain, source = data["terrain"], data["source"]
        if source == "hand" and terrain in s.hands[seat]:
            s.hands[seat].remove(terrain)
        elif source == "face_up" and terrain in s.face_up:
            s.face_up.remove(terrain)
        elif source == "draw_pile" and s.draw_pile:
            s.draw_pile.pop(0)
        s.card, s.phase = terrain, TURN
    elif kind == "terrain_card_drawn":
        terrain = s.draw_pile.pop(0) if s.draw_pile else None
        if data.get("to") == "face_up":
            s.face_up.append(data.get("terrain", terrain))
        else:
            secret = _private(event, seat).get("terrain", terrain)
            s.hands[seat].append(secret)
    elif kind == "terrain_deck_reshuffled":
        s.draw_pile = list(_private(event, -1).get("draw_pile", s.discard))
        s.discard = []
    elif kind == "terrain_card_discarded":
        terrain = data["terrain"]
        if data.get("source") == "hand":
            if terrain in s.hands[seat]:
                s.hands[seat].remove(terrain)
        else:
            s.card = None
        s.discard.append(terrain)
    elif kind == "terrain_card_removed":
        s.removed.append(data["terrain"])
        s.card, s.phase = None, CHOOSE_TERRAIN
    elif kind == "terrain_exhausted":
        s.card, s.phase = None, CHOOSE_TERRAIN
    elif kind == "mandatory_action_cut_short":
        s.cut_short, s.phase = True, TURN
    elif kind == "settlement_built":
        h = _hex(data["hex"])
        s.owner[h] = seat
        s.settlements[seat].add(h)
        s.supply[seat] -= 1
        if data.get("tile") is None:
            s.placed += 1
        _mark_used(s, seat, data.get("tile"))
    elif kind == "settlement_moved":
        source, to = _hex(data["from"]), _hex(data["to"])
        s.owner[source] = EMPTY
        s.settlements[seat].discard(source)
        s.owner[to] = seat
        s.settlements[seat].add(to)
        _mark_used(s, seat, data.get("tile"))
    elif kind == "tile_taken":
        location = _hex(data["location"])
        s.tiles_left[location] = s.tiles_left.get(location, 1) - 1
        s.held[seat].append(
            {"tile": data["tile"], "location": location, "fresh": True, "used": False}
        )
        s.taken_from[seat].add(location)
    elif kind == "tile_loss_pending":
        s.pending.append({"seat": seat, "tile": data["tile"], "location": _hex(data["location"])})
        s.phase = DISCARD_TILE
    elif kind == "tile_lost":
        _lose_tile(s, seat, _hex(data["location"]), _hex(data.get("discarded", data["location"])))
    elif kind == "game_end_triggered":
        s.end_triggered = True
    elif kind == "game_finished":
        s.phase = FINISHED
        s.outcome = {
            "scores": data["scores"],
            "ranking": data["ranking"],
            "breakdown": data["breakdown"],
        }
    # turn_ended and unknown events change nothing.
    return s


def _lose_tile(s: State, seat: int, location: int, discarded: int) -> None:
    """Lose the tile taken at ``location``; the player gave up the one from ``discarded``.

    Tiles of one kind are alike; only their state this turn (taken, used) differs. Keeping
    the other one means the kept tile now answers for the hex still next to the player.
    """
    lost = _held_of(s, seat, location)
    chosen = _held_of(s, seat, discarded)
    if lost is None:
        return
    if chosen is not None and chosen is not lost:
        chosen["fresh"], chosen["used"] = lost["fresh"], lost["used"]
    s.held[seat].remove(lost)
    s.pending = [p for p in s.pending if not (p["seat"] == seat and p["location"] == location)]
    if not s.pending and s.phase == DISCARD_TILE:
        s.phase = TURN


def copy_state(s: State) -> State:
    c = State()
    c.options = s.options  # never mutated after setup
    c.players = s.players
    c.layout = s.layout
    c.board = s.board
    c.cards = s.cards
    c.owner = list(s.owner)
    c.settlements = [set(x) for x in s.settlements]
    c.supply = list(s.supply)
    c.gold = list(s.gold)
    c.tiles_left = dict(s.tiles_left)
    c.held = [[dict(t) for t in tiles] for tiles in s.held]
    c.taken_from = [set(x) for x in s.taken_from]
    c.draw_pile = list(s.draw_pile)
    c.discard = list(s.discard)
    c.removed = list(s.removed)
    c.face_up = list(s.face_up)
    c.hands = [list(h) for h in s.hands]
    c.start_player = s.start_player
    c.active = s.active
    c.turns = list(s.turns)
    c.card = s.card
    c.phase = s.phase
    c.placed = s.placed
    c.cut_short = s.cut_short
    c.pending = [dict(p) for p in s.pending]
    c.end_triggered = s.end_triggered
    c.outcome = s.outcome
    return c


def dump(s: State) -> dict[str, Any]:
    return {
        "options": s.options,
        "players": s.players,
        "layout": [[name, rot] for name, rot in s.layout],
        "cards": list(s.cards),
        "owner": list(s.owner),
        "supply": list(s.supply),
        "gold": list(s.gold),
        "tiles_left": [[loc, n] for loc, n in sorted(s.tiles_left.items())],
        "held": [[dict(t) for t in tiles] for tiles in s.held],
        "taken_from": [sorted(x) for x in s.taken_from],
        "draw_pile": list(s.draw_pile),
        "discard": list(s.discard),
        "removed": list(s.removed),
        "face_up": list(s.face_up),
        "hands": [list(h) for h in s.hands],
        "start_player": s.start_player,
        "active": s.active,
        "turns": list(s.turns),
        "card": s.card,
        "phase": s.phase,
        "placed": s.placed,
        "cut_short": s.cut_short,
        "pending": [dict(p) for p in s.pending],
        "end_triggered": s.end_triggered,
        "outcome": s.outcome,
    }


def load(data: dict[str, Any]) -> State:
    s = State()
    s.options = dict(data["options"])
    s.players = data["players"]
    s.layout = tuple((name, bool(rot)) for name, rot in data["layout"])
    s.board = assemble(s.layout)
    s.cards = list(data["cards"])
    s.owner = list(data["owner"])
    s.settlements = [set() for _ in range(s.players)]
    for i, seat in enumerate(s.owner):
        if seat >= 0:
            s.settlements[seat].add(i)
    s.supply = list(data["supply"])
    s.gold = list(data["gold"])
    s.tiles_left = {int(loc): n for loc, n in data["tiles_left"]}
    s.held = [[dict(t) for t in tiles] for tiles in data["held"]]
    s.taken_from = [set(x) for x in data["taken_from"]]
    s.draw_pile = list(data["draw_pile"])
    s.discard = list(data["discard"])
    s.removed = list(data["removed"])
    s.face_up = list(data["face_up"])
    s.hands = [list(h) for h in data["hands"]]
    s.start_player = data["start_player"]
    s.active = data["active"]
    s.turns = list(data["turns"])
    s.card = data["card"]
    s.phase = data["phase"]
    s.placed = data["placed"]
    s.cut_short = data["cut_short"]
    s.pending = [dict(p) for p in data["pending"]]
    s.end_triggered = data["end_triggered"]
    s.outcome = data["outcome"]
    return s


def determinize(s: State, seat: int | None, rng: random.Random) -> State:
    """A copy where the cards hidden from ``seat`` (other hands, pile order) are re-dealt.

    The pool of unseen cards is exactly what ``seat`` cannot see: the draw pile and the
    other seats' hands; each keeps its size.
    """
    c = copy_state(s)
    others = [p for p in range(s.players) if p != seat]
    pool = list(c.draw_pile)
    for p in others:
        pool.extend(c.hands[p])
    rng.shuffle(pool)
    for p in others:
        size = len(c.hands[p])
        c.hands[p], pool = pool[:size], pool[size:]
    c.draw_pile = pool
    return c
