"""Real positions for the rules pages' pictures: seeded games played out by the engine
itself (its bots' legal moves, chosen by a seeded RNG), viewed as a spectator sees them
and scored by the engine's own ``outcome``. The same seed gives the same pictures, so the
pages are computed once per process."""

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
