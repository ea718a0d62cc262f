"""The game state and the fold of events into it (snapshots live in ``snapshot.py``).

``evolve`` trusts recorded events: it applies them and never checks a rule (``turn.py``
decides). Coordinates in events are ``[row, col]`` lists; inside the state hexes are flat
indices. Secret parts: ``hands`` (each seat's own terrain cards) and ``draw_pile`` (order).
The expansions' events are folded by ``expansion_events``.
"""

from __future__ import annotations

from typing import Any

from games.rules.base import Event
from games.rules.kingdom_builder import undo
from games.rules.kingdom_builder.board import SIZE, Board, assemble
from games.rules.kingdom_builder.expansion_events import EXPANSION_EVENTS, hex_at, mark_used
from games.rules.kingdom_builder.placement import EMPTY

SETTLEMENTS_EACH = 40
STONE_WALLS = 25  # Nomads: in total, for everybody
# Options added with the expansions: games set up before them lack these keys.
EXPANSION_DEFAULTS: dict[str, Any] = {
    "undo": False,  # tables before undo existed lack it
    "confirm_end_turn": False,  # undo tables before it ended a finished turn at once
    "nomads": False,
    "crossroads": False,
    "crossroads_pieces_score": False,
}

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
        "card_gone_at_start",
        "pending",
        "end_triggered",
        "outcome",
        # Nomads
        "nomad_tiles",
        "nomad_held",
        "walls",
        "walls_left",
        "earned",
        "action",
        "outpost_armed",
        "mandatory_hexes",
        # Crossroads
        "tasks",
        "warriors",
        "wagon",
        "ship",
        "city_hall",
        "guarded",
        # Undo tables: copies of the state before each undoable action of this turn
        "undo",
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
    # The turn's card had no empty hex of its terrain when revealed: no Oracle or Barn (FAQ).
    card_gone_at_start: bool
    pending: list[dict[str, Any]]  # tile losses awaiting the player's choice
    end_triggered: bool
    outcome: dict[str, Any] | None
    nomad_tiles: dict[int, str | None]  # nomad space hex -> its tile (None once taken)
    nomad_held: list[list[dict[str, Any]]]  # per seat: {"tile", "space", "fresh"}
    walls: set[int]
    walls_left: int
    earned: list[dict[str, int]]  # per seat: gold earned during play, by source
    # A multi-step Nomads action in progress: {"kind": "donation" | "resettlement" |
    # "sword" | "quarry", "tile", "left" or "victims", ...}, else None.
    action: dict[str, Any] | None
    outpost_armed: bool  # Nomads' Outpost: the next build ignores the adjacency rule
    mandatory_hexes: list[int]  # where this turn's mandatory settlements went (Families)
    tasks: list[str]  # Crossroads task cards in play
    warriors: list[list[int]]  # per seat: hexes of its warriors on the board
    wagon: list[int]  # per seat: hex of its wagon, -1 off the board
    ship: list[int]
    city_hall: list[list[int]]  # per seat: its 7 city-hall hexes (centre first), or []
    guarded: set[int]  # hexes next to a warrior (derived from ``warriors``)
    undo: list[State]  # copies of the state before each undoable action of this turn

    @property
    def finished(self) -> bool:
        return self.phase == FINISHED

    @property
    def terrain_draw(self) -> str:
        draw: str = self.options["terrain_draw"]
        return draw

    def mandatory_done(self) -> bool:
        return self.placed >= 3 or self.cut_short or self.supply[self.active] <= 0

    def mandatory_in_progress(self) -> bool:
        """Between the first and the last settlement of the mandatory action."""
        return self.placed > 0 and not self.mandatory_done()


def _private(event: Event, seat: int) -> dict[str, Any]:
    """The event's private part for ``seat`` (keys may come back as strings from JSON)."""
    return event.private.get(seat) or event.private.get(str(seat)) or {}  # type: ignore[call-overload]


_hex = hex_at


def new_state(event: Event) -> State:
    data = event.public
    s = State()
    s.options = {**EXPANSION_DEFAULTS, **data["options"]}
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
    s.card_gone_at_start = False
    s.pending = []
    s.end_triggered = False
    s.outcome = None
    s.nomad_tiles = {_hex(space["hex"]): space["tile"] for space in data.get("nomad_spaces", [])}
    s.nomad_held = [[] for _ in range(n)]
    s.walls = set()
    s.walls_left = data.get("walls", 0)
    s.earned = [{} for _ in range(n)]
    s.action = None
    s.outpost_armed = False
    s.mandatory_hexes = []
    s.tasks = list(data.get("tasks", []))
    s.warriors = [[] for _ in range(n)]
    s.wagon = [-1] * n
    s.ship = [-1] * n
    s.city_hall = [[] for _ in range(n)]
    s.guarded = set()
    s.undo = []
    return s


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
    c.card_gone_at_start = s.card_gone_at_start
    c.pending = [dict(p) for p in s.pending]
    c.end_triggered = s.end_triggered
    c.outcome = s.outcome
    c.nomad_tiles = dict(s.nomad_tiles)
    c.nomad_held = [[dict(t) for t in tiles] for tiles in s.nomad_held]
    c.walls = set(s.walls)
    c.walls_left = s.walls_left
    c.earned = [dict(e) for e in s.earned]
    c.action = copy_action(s.action)
    c.outpost_armed = s.outpost_armed
    c.mandatory_hexes = list(s.mandatory_hexes)
    c.tasks = s.tasks  # never mutated after setup
    c.warriors = [list(w) for w in s.warriors]
    c.wagon = list(s.wagon)
    c.ship = list(s.ship)
    c.city_hall = [list(x) for x in s.city_hall]
    c.guarded = set(s.guarded)
    c.undo = list(s.undo)  # the copies are never changed once kept
    return c


def copy_action(action: dict[str, Any] | None) -> dict[str, Any] | None:
    if action is None:
        return None
    copied = dict(action)
    if "victims" in copied:
        copied["victims"] = list(copied["victims"])
    return copied


def _held_of(s: State, seat: int, location: int) -> dict[str, Any] | None:
    for tile in s.held[seat]:
        if tile["location"] == location:
            return tile
    return None


def evolve(s: State | None, event: Event) -> State:
    kind, data = event.type, event.public
    if s is None or kind == "game_set_up":
        return new_state(event)
    if s.options["undo"]:
        s = undo.fold(s, event, copy_state)
        if kind == undo.MOVE_UNDONE:
            return s
    seat = data.get("seat", s.active)
    if kind == "turn_started":
        s.active = seat
        s.turns[seat] += 1
        s.card, s.phase, s.placed, s.cut_short = None, CHOOSE_TERRAIN, 0, False
        s.card_gone_at_start = False
        s.action, s.outpost_armed, s.mandatory_hexes = None, False, []
        for tile in s.held[seat]:
            tile["fresh"] = tile["used"] = False
        for tile in s.nomad_held[seat]:
            tile["fresh"] = False  # taken last turn: to be used in this one
    elif kind == "terrain_card_revealed":
        terrain, source = data["terrain"], data["source"]
        if source == "hand" and terrain in s.hands[seat]:
            s.hands[seat].remove(terrain)
        elif source == "face_up" and terrain in s.face_up:
            s.face_up.remove(terrain)
        elif source == "draw_pile" and s.draw_pile:
            s.draw_pile.pop(0)
        s.card, s.phase = terrain, TURN
        if data.get("no_empty_hex"):
            s.card_gone_at_start = True
    elif kind == "terrain_card_drawn":
        terrain = s.draw_pile.pop(0) if s.draw_pile else None
        if data.get("to") == "face_up":
            # A face-up draw's event always names its card (deck.py), so never None.
            s.face_up.append(data.get("terrain", terrain))  # type: ignore[arg-type]
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
            s.mandatory_hexes.append(h)
        s.outpost_armed = False  # an armed Outpost is spent on the next build
        if s.action is not None and s.action["kind"] == "donation":
            s.action["left"] -= 1
        mark_used(s, seat, data.get("tile"))
    elif kind == "settlement_moved":
        source, to = _hex(data["from"]), _hex(data["to"])
        s.owner[source] = EMPTY
        s.settlements[seat].discard(source)
        s.owner[to] = seat
        s.settlements[seat].add(to)
        if s.action is not None and s.action["kind"] == "resettlement":
            s.action["left"] -= 1
        mark_used(s, seat, data.get("tile"))
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
    elif kind in EXPANSION_EVENTS:
        EXPANSION_EVENTS[kind](s, seat, data)
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
