"""Positions for the rules pages' pictures: seeded games played out by the engine itself
(its legal moves, chosen by a seeded RNG as the easy bot chooses them), and for Kingdoms'
scoring rules one row laid by chosen legal moves; viewed as a spectator sees them and
scored by the engine's own ``outcome`` and epoch scoring. The same seed gives the same
pictures, so the pages are computed once per process."""

from __future__ import annotations

import random
from functools import cache
from typing import Any

from games.rules import get_ruleset
from games.rules.base import seeded_rng

# Kingdom Builder's ten base cards, three per example game (the last game repeats two).
KB_CARD_GAMES: tuple[tuple[str, str, str], ...] = (
    ("fishermen", "miners", "workers"),
    ("merchants", "discoverers", "knights"),
    ("hermits", "citizens", "farmers"),
    ("lords", "fishermen", "knights"),
)
# Enough moves for a small opening position, well before the end.
OPENING_MOVES = {"kingdom-builder": 6, "kingdoms": 8, "kingdom-cards": 10}
MAX_MOVES = 4000


def _play(key: str, options: dict[str, Any], seed: str, moves: int | None) -> tuple[Any, Any]:
    """Play a game with its fewest players ``moves`` commands deep (None: to its end)."""
    rules = get_ruleset(key)
    opts = rules.clean_options(options)
    players = rules.seat_range(opts)[0]
    state = rules.fold(rules.setup(opts, players, seeded_rng(seed, 0)))
    pick = random.Random(seed)
    for seq in range(1, MAX_MOVES):
        if moves is not None and seq > moves:
            break
        if rules.outcome(state) is not None:
            break
        seats = sorted(rules.to_act(state))
        if not seats:
            break
        seat = seats[0]
        choices = rules.bot_commands(state, seat)
        if not choices:
            break
        command = pick.choice(choices)
        state = rules.fold(rules.decide(state, seat, command, seeded_rng(seed, seq)), state)
    return rules, state


def _finished(key: str, options: dict[str, Any], seed: str) -> dict[str, Any]:
    rules, state = _play(key, options, seed, None)
    outcome = rules.outcome(state)
    return {
        "view": rules.view(state, None),
        "outcome": outcome.as_json() if outcome else None,
    }


@cache
def examples(key: str) -> dict[str, Any]:
    """The pictures' positions for one game, JSON-ready."""
    seed = f"rules-page-{key}"
    rules, opening = _play(key, {}, seed, OPENING_MOVES.get(key, 6))
    data: dict[str, Any] = {"opening": rules.view(opening, None)}
    if key == "kingdom-builder":
        data["card_games"] = [
            _finished(key, {"cards": list(cards), "board": "first_game"}, f"{seed}-{i}")
            for i, cards in enumerate(KB_CARD_GAMES)
        ]
        data["worked"] = data["card_games"][0]
    else:
        data["worked"] = _finished(key, {}, seed)
    if key == "kingdoms":
        data["scoring_rules"] = [_laid_row(cells) for _rule, cells in KINGDOMS_RULE_ROWS]
    return data


# The rules pages' picture names for the seats (the renderers' seat colours).
SEAT_NAMES = ("Orange", "Sky blue", "Green", "Purple", "Blue")
# The breakdown's parts in players' words; a part not named here is left out (Kingdoms'
# "gold" is the total itself).
PART_WORDS = {
    "start": "starting gold",
    "castles": "castles (3 each)",
    "complete": "complete kingdom (1 = yes)",
    "bonus_halves": "bonus, in half points",
    "cards_held": "cards held",
}


def _part_label(key: str) -> str | None:
    if key in PART_WORDS:
        return PART_WORDS[key]
    if key.startswith("epoch_"):
        return f"epoch {key.removeprefix('epoch_')}"
    if key == "gold":
        return None
    return key.replace("_", " ").capitalize()


def worked_rows(key: str) -> list[dict[str, Any]]:
    """The worked example's numbers, per seat: the engine's breakdown, total and place."""
    outcome = examples(key)["worked"]["outcome"] or {}
    places = {
        str(seat): place
        for place, group in enumerate(outcome.get("ranking", []), start=1)
        for seat in group
    }
    rows = []
    for seat, total in sorted(outcome.get("scores", {}).items()):
        parts = outcome.get("breakdown", {}).get(seat, {})
        rows.append(
            {
                "name": SEAT_NAMES[int(seat)],
                "total": total,
                "place": places.get(seat),
                "parts": [
                    {"key": k, "label": label, "value": v}
                    for k, v in parts.items()
                    if (label := _part_label(k)) is not None
                ],
            }
        )
    return rows


def kingdoms_lines() -> list[dict[str, Any]]:
    """Kingdoms' last epoch of the worked example, line by line: each row's and column's
    gain per seat, by the engine's own epoch scoring of the final board."""
    # Imported here: only the Kingdoms page needs it.
    from games.rules.kingdoms.scoring import score_position

    view = examples("kingdoms")["worked"]["view"]
    grid = [[(cell or {}).get("code", "") for cell in row] for row in view["grid"]]
    sheet = score_position({"grid": grid})["players"]
    seats = sorted(sheet, key=int)
    lines = []
    for kind, label in (("rows", "Row"), ("columns", "Column")):
        for index in range(len(sheet[seats[0]][kind]) if seats else 0):
            lines.append(
                {
                    "label": f"{label} {index + 1}",
                    "gains": [sheet[seat][kind][index] for seat in seats],
                }
            )
    lines.append({"label": "Epoch total", "gains": [sheet[seat]["total"] for seat in seats]})
    return lines


def kb_cards() -> list[dict[str, Any]]:
    """Each Kingdom Builder card with the example game it was scored in and the gold the
    engine gave each player for it there."""
    games = examples("kingdom-builder")["card_games"]
    seen: set[str] = set()
    cards = []
    for index, (names, game) in enumerate(zip(KB_CARD_GAMES, games, strict=True)):
        breakdown = (game["outcome"] or {}).get("breakdown", {})
        for card in names:
            if card in seen:
                continue
            seen.add(card)
            cards.append(
                {
                    "card": card,
                    "name": card.capitalize(),
                    "game": index,
                    "gold": [
                        {"name": SEAT_NAMES[int(seat)], "value": parts.get(card, 0)}
                        for seat, parts in sorted(breakdown.items())
                    ],
                }
            )
    return cards


# Kingdoms' epoch scoring, a rule a picture: row 1 of a board laid with these pieces
# (kind codes, and "castle:SEAT:RANK" for seat 0, Orange, and seat 1, Sky blue), the
# rest of the board empty. A castle alone in its column scores nothing there, so the row
# is the whole story. The Wizard's row needs the Wizard, which is in by default.
KINGDOMS_RULE_ROWS: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("mountain", ("castle:0:1", "+5", "mountain", "+3", "castle:1:2", "-6")),
    ("dragon", ("castle:0:2", "+6", "dragon", "-2", "castle:1:1", "+4")),
    ("gold_mine", ("castle:0:1", "+3", "gold_mine", "-1", "castle:1:2", "+1")),
    ("wizard", ("castle:0:2", "wizard", "castle:1:1", "+3", "+2", "-1")),
)


def _laid_row(cells: tuple[str, ...]) -> dict[str, Any]:
    """The spectator's view of a two-player No Luck game (every tile face up, so each
    can be chosen) in which the players laid ``cells`` along row 1 by legal moves: on
    their turn, their own castle if one is still to lay, else the next tile."""
    # Imported here: only the Kingdoms page needs them.
    from games.rules.kingdoms.castles import parse_castle
    from games.rules.kingdoms.tiles import KIND_CODE

    rules = get_ruleset("kingdoms")
    seed = "rules-page-kingdoms-scoring"
    state = rules.fold(rules.setup(rules.clean_options({"no_luck": True}), 2, seeded_rng(seed, 0)))
    castles: dict[int, list[tuple[int, int]]] = {0: [], 1: []}
    tiles: list[tuple[int, str]] = []
    for column, cell in enumerate(cells):
        castle = parse_castle(cell)
        if castle is not None:
            castles[castle[0]].append((column, castle[1]))
        else:
            tiles.append((column, cell))
    for seq in range(1, len(cells) + 1):
        (seat,) = rules.to_act(state)
        legal = rules.legal_commands(state, seat)
        if castles[seat]:
            column, rank = castles[seat].pop(0)
            wanted: dict[str, Any] = {"type": "place_castle", "rank": rank, "space": [0, column]}
        else:
            column, code = tiles.pop(0)
            wanted = next(
                c
                for c in legal
                if c["type"] == "place_tile"
                and KIND_CODE[c["tile"]] == code
                and c["space"] == [0, column]
            )
        state = rules.fold(rules.decide(state, seat, wanted, seeded_rng(seed, seq)), state)
    return rules.view(state, None)


def kingdoms_rules() -> list[dict[str, Any]]:
    """Each scoring rule's row as the engine scores it: each part of the row (split at a
    Mountain) with what lies in it, what a castle rank is worth there and each castle
    owner's ranks (a Wizard's +1 shown) and gain; and the row's gain per player."""
    # Imported here: only the Kingdoms page needs them.
    from games.rules.kingdoms.board import CASTLE, LINES, parts, piece_of
    from games.rules.kingdoms.scoring import score_lines, score_part, wizard_bonus
    from games.rules.kingdoms.view import tile_name

    def words(cell: dict[str, Any]) -> str:
        if cell["piece"] == "castle":
            return f"{SEAT_NAMES[cell['seat']]}'s rank-{cell['rank']} castle"
        return tile_name(cell["tile"])

    rules: list[dict[str, Any]] = []
    views = examples("kingdoms")["scoring_rules"]
    for (rule, _cells), view in zip(KINGDOMS_RULE_ROWS, views, strict=True):
        grid = [cell for row in view["grid"] for cell in row]
        pieces = [piece_of(cell["code"]) if cell else None for cell in grid]
        bonus = wizard_bonus(pieces)
        split = parts(LINES[0].cells, pieces)
        where = (
            ["the row"] if len(split) == 1 else ["left of the Mountain", "right of the Mountain"]
        )
        shown = []
        for label, part in zip(where, split, strict=True):
            gains = score_part(part, pieces, bonus)
            # Each owner's castles there: (rank, the Wizard's +1s).
            castles: dict[int, list[tuple[int, int]]] = {}
            for i in part:
                piece = pieces[i]
                if piece is not None and piece.kind == CASTLE:
                    castles.setdefault(piece.seat, []).append((piece.value, bonus.get(i, 0)))
            # Every owner's gain in a part is the part's worth times their ranks there.
            worth = {g // sum(r + e for r, e in castles[seat]) for seat, g in gains.items()}
            shown.append(
                {
                    "where": label,
                    "pieces": ", ".join(words(grid[i]) for i in part if grid[i]),
                    "worth": f"{worth.pop():+d}" if len(worth) == 1 else None,
                    "gains": [
                        {
                            "name": SEAT_NAMES[seat],
                            "ranks": " + ".join(
                                f"{r} + {e}" if e else str(r) for r, e in castles[seat]
                            ),
                            "gain": f"{gain:+d}",
                        }
                        for seat, gain in sorted(gains.items())
                    ],
                }
            )
        row = score_lines(pieces, [0])[0]
        rules.append(
            {
                "rule": rule,
                "name": tile_name(rule),
                "index": len(rules),
                "parts": shown,
                "row": [
                    {"name": SEAT_NAMES[seat], "gain": f"{gain:+d}"}
                    for seat, gain in sorted(row.items())
                ],
            }
        )
    return rules
