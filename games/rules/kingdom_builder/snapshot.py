"""JSON snapshots and determinization of the state (``copy_state`` is in ``state.py``).

A base game's snapshot holds the base game's keys only; the expansions' parts go under
``"expansions"`` when one is in play.
"""

from __future__ import annotations

import random
from typing import Any

from games.rules.kingdom_builder.board import assemble
from games.rules.kingdom_builder.placement import guarded_by
from games.rules.kingdom_builder.state import EXPANSION_DEFAULTS, State, copy_action, copy_state


def dump(s: State) -> dict[str, Any]:
    """The snapshot; the expansions' parts only when one is in play, so that a base game's
    snapshot holds only the base game's keys (older snapshots load unchanged)."""
    data = {
        "options": {
            k: v
            for k, v in s.options.items()
            if k not in EXPANSION_DEFAULTS or v != EXPANSION_DEFAULTS[k]
        },
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
        "card_gone_at_start": s.card_gone_at_start,
        "pending": [dict(p) for p in s.pending],
        "end_triggered": s.end_triggered,
        "outcome": s.outcome,
    }
    if s.options.get("nomads") or s.options.get("crossroads"):
        data["expansions"] = {
            "settlements": [sorted(x) for x in s.settlements],
            "nomad_tiles": [[space, tile] for space, tile in sorted(s.nomad_tiles.items())],
            "nomad_held": [[dict(t) for t in tiles] for tiles in s.nomad_held],
            "walls": sorted(s.walls),
            "walls_left": s.walls_left,
            "earned": [dict(e) for e in s.earned],
            "action": copy_action(s.action),
            "outpost_armed": s.outpost_armed,
            "mandatory_hexes": list(s.mandatory_hexes),
            "tasks": list(s.tasks),
            "warriors": [list(w) for w in s.warriors],
            "wagon": list(s.wagon),
            "ship": list(s.ship),
            "city_hall": [list(x) for x in s.city_hall],
        }
    if s.undo:
        data["undo"] = [dump(checkpoint) for checkpoint in s.undo]
    return data


def load(data: dict[str, Any]) -> State:
    s = State()
    s.options = {**EXPANSION_DEFAULTS, **data["options"]}
    s.players = n = data["players"]
    s.layout = tuple((name, bool(rot)) for name, rot in data["layout"])
    s.board = assemble(s.layout)
    s.cards = list(data["cards"])
    s.owner = list(data["owner"])
    extra = data.get("expansions", {})
    if "settlements" in extra:
        s.settlements = [set(x) for x in extra["settlements"]]
    else:  # a snapshot of the base game: every owned hex is a settlement
        s.settlements = [set() for _ in range(n)]
        for i, seat in enumerate(s.owner):
            if seat >= 0:
                s.settlements[seat].add(i)
    s.supply = list(data["supply"])
    s.gold = list(data["gold"])
    s.tiles_left = {int(loc): count for loc, count in data["tiles_left"]}
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
    s.card_gone_at_start = data.get("card_gone_at_start", False)
    s.pending = [dict(p) for p in data["pending"]]
    s.end_triggered = data["end_triggered"]
    s.outcome = data["outcome"]
    s.nomad_tiles = {int(space): tile for space, tile in extra.get("nomad_tiles", [])}
    s.nomad_held = [[dict(t) for t in tiles] for tiles in extra.get("nomad_held", [[]] * n)]
    s.walls = set(extra.get("walls", []))
    s.walls_left = extra.get("walls_left", 0)
    s.earned = [dict(e) for e in extra.get("earned", [{}] * n)]
    s.action = copy_action(extra.get("action"))
    s.outpost_armed = extra.get("outpost_armed", False)
    s.mandatory_hexes = list(extra.get("mandatory_hexes", []))
    s.tasks = list(extra.get("tasks", []))
    s.warriors = [list(w) for w in extra.get("warriors", [[]] * n)]
    s.wagon = list(extra.get("wagon", [-1] * n))
    s.ship = list(extra.get("ship", [-1] * n))
    s.city_hall = [list(x) for x in extra.get("city_hall", [[]] * n)]
    s.guarded = guarded_by(s.warriors)
    s.undo = [load(checkpoint) for checkpoint in data.get("undo", [])]
    return s


def determinize(s: State, seat: int | None, rng: random.Random) -> State:
    """A copy where the cards hidden from ``seat`` (other hands, pile order) are re-dealt.

    The pool of unseen cards is exactly what ``seat`` cannot see: the draw pile and the
    other seats' hands; each keeps its size. Everything else (nomad tiles, tasks, pieces)
    is public.
    """
    c = copy_state(s)
    # The copies hold the true hidden cards, and a bot never undoes: its worlds keep none.
    c.undo = []
    c.options = {**s.options, "undo": False}
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
